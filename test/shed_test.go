package test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/remoting"
)

// job is a message of the clerk: do work named label, taking hold.
type job struct {
	label string
	hold  time.Duration
}

// clerk is an actor target that keeps a record of what it ran and of the
// lifecycle messages it saw, and answers each job with its label once it
// has held its turn for the job's time.
type clerk struct {
	mu        sync.Mutex
	ran       []string
	lifecycle []string
	shed      []string
	deadlines []time.Time
}

func (k *clerk) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *job:
		k.mu.Lock()
		k.ran = append(k.ran, m.label)
		k.mu.Unlock()
		time.Sleep(m.hold) // fake time: the actor is busy
		c.Respond(m.label)
	case *actor.Started, *actor.Restarting, *actor.Stopping, *actor.Stopped:
		k.mu.Lock()
		k.lifecycle = append(k.lifecycle, fmt.Sprintf("%T", m))
		k.mu.Unlock()
	}
}

// onShed is the clerk's ShedConfig.OnShed.
func (k *clerk) onShed(msg any, deadline time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.shed = append(k.shed, msg.(*job).label)
	k.deadlines = append(k.deadlines, deadline)
}

func (k *clerk) record() (ran, shed []string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.ran...), append([]string(nil), k.shed...)
}

// spawnClerk spawns k with ShedExpired(cfg) in front of it, or, if cfg is
// nil, plain.
func spawnClerk(t *testing.T, sys *actor.ActorSystem, k *clerk, cfg *remoting.ShedConfig) *actor.PID {
	t.Helper()
	var opts []actor.PropsOption
	if cfg != nil {
		cfg.OnShed = k.onShed
		shed, err := remoting.ShedExpired(*cfg)
		require.NoError(t, err)
		opts = append(opts, actor.WithReceiverMiddleware(shed))
	}
	return sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return k }, opts...))
}

func TestShedExpiredDropsACallThatTimedOutWhileTheTargetWasBusy(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     *remoting.ShedConfig
		wantRan []string
	}{
		{"without ShedExpired the timed-out call still runs, late", nil, []string{"busy", "late", "patient"}},
		{"ShedExpired", &remoting.ShedConfig{}, []string{"busy", "patient"}},
		{"a tolerance the lateness (1.7 s) is within", &remoting.ShedConfig{Tolerance: 2 * time.Second}, []string{"busy", "late", "patient"}},
		{"a tolerance the lateness is beyond", &remoting.ShedConfig{Tolerance: time.Second}, []string{"busy", "patient"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				// Given an actor target busy for 2 s with a first call
				k := &clerk{}
				pid := spawnClerk(t, e.Sys, k, tc.cfg)
				testkit.Register(t, e.Reg, "clerk", tripwire.ActorTarget(pid), tripwire.Settings{CallTimeout: 5 * time.Second})
				start := time.Now()
				answers := make(chan string, 3)
				call := func(ctx context.Context, label string, hold time.Duration) {
					v, err := e.Reg.Call(ctx, "clerk", &job{label: label, hold: hold})
					answers <- fmt.Sprintf("%s %v %v at +%v", label, v, err, time.Since(start))
				}
				go call(context.Background(), "busy", 2*time.Second)
				synctest.Wait()

				// When a call whose caller gives up after 300 ms waits behind
				// it, and then one that waits long enough
				short, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
				defer cancel()
				go call(short, "late", 0)
				synctest.Wait()
				go call(context.Background(), "patient", 0)

				// Then the impatient caller gets ErrTimeout at its deadline,
				// and the others their answers once the target is free
				got := []string{<-answers, <-answers, <-answers}
				slices.Sort(got) // the last two come at the same instant
				require.Equal(t, []string{
					"busy busy <nil> at +2s",
					"late <nil> " + tripwire.ErrTimeout.Error() + " at +300ms",
					"patient patient <nil> at +2s",
				}, got)
				// And the call that timed out is run only without shedding
				synctest.Wait()
				ran, shed := k.record()
				require.Equal(t, tc.wantRan, ran)
				if len(ran) == 2 {
					require.Equal(t, []string{"late"}, shed)
					require.True(t, k.deadlines[0].Equal(start.Add(300*time.Millisecond)), "shed with deadline %v", k.deadlines[0])
				} else {
					require.Empty(t, shed)
				}
			})
		})
	}
}

func TestShedExpiredServesCallersThatSetTheHeaderThemselves(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a shedding actor target, busy for 1 s
		k := &clerk{}
		pid := spawnClerk(t, sys, k, &remoting.ShedConfig{})
		sys.Root.Send(pid, &job{label: "busy", hold: time.Second})
		synctest.Wait()

		// When a future's caller sends a request whose deadline passes while
		// it waits, and one whose deadline will not have passed
		ask := func(label string, within time.Duration) *actor.Future {
			f := actor.NewFuture(sys, within)
			env, err := remoting.DeadlineEnvelope(&job{label: label}, f.PID(), time.Now().Add(within))
			require.NoError(t, err)
			sys.Root.Send(pid, env)
			return f
		}
		expired, kept := ask("expired", 500*time.Millisecond), ask("kept", 2*time.Second)
		// And an actor sends one with itself as the sender, as
		// RequestWithCustomSender does, its deadline also passing
		replies := make(chan any, 1)
		collector := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
			if s, ok := c.Message().(string); ok {
				replies <- s
			}
		}))
		env, err := remoting.DeadlineEnvelope(&job{label: "custom"}, collector, time.Now().Add(500*time.Millisecond))
		require.NoError(t, err)
		sys.Root.Send(pid, env)

		// Then the expired requests are not run and get no reply: the
		// future times out at its own deadline
		_, err = expired.Result()
		require.ErrorIs(t, err, actor.ErrTimeout)
		v, err := kept.Result()
		require.NoError(t, err)
		require.Equal(t, "kept", v)
		synctest.Wait()
		require.Empty(t, replies)
		ran, shed := k.record()
		require.Equal(t, []string{"busy", "kept"}, ran)
		require.Equal(t, []string{"expired", "custom"}, shed)
	})
}

func TestShedExpiredLetsLifecycleMessagesPass(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a shedding actor target
		k := &clerk{}
		pid := spawnClerk(t, sys, k, &remoting.ShedConfig{})
		// When protoactor's poison pill comes in an envelope whose deadline
		// has long passed
		past, err := remoting.DeadlineEnvelope(&actor.PoisonPill{}, nil, time.Now().Add(-time.Hour))
		require.NoError(t, err)
		stopped := actor.NewFuture(sys, 10*time.Second)
		proc, _ := sys.ProcessRegistry.Get(pid)
		proc.SendSystemMessage(pid, &actor.Watch{Watcher: stopped.PID()})
		sys.Root.Send(pid, past)

		// Then the actor still stops, and saw every lifecycle message
		v, err := stopped.Result()
		require.NoError(t, err)
		require.IsType(t, &actor.Terminated{}, v)
		k.mu.Lock()
		defer k.mu.Unlock()
		require.Equal(t, []string{"*actor.Started", "*actor.Stopping", "*actor.Stopped"}, k.lifecycle)
		require.Empty(t, k.shed)
	})
}

func TestShedExpiredAndDeadlineEnvelopeRefuseBadInput(t *testing.T) {
	_, err := remoting.ShedExpired(remoting.ShedConfig{Tolerance: -time.Nanosecond})
	require.ErrorIs(t, err, tripwire.ErrInvalidOption)

	now := time.Now()
	for name, tc := range map[string]struct {
		msg      any
		deadline time.Time
	}{
		"nil message":      {nil, now},
		"envelope message": {&actor.MessageEnvelope{Message: "x"}, now},
		"zero deadline":    {"x", time.Time{}},
	} {
		env, err := remoting.DeadlineEnvelope(tc.msg, nil, tc.deadline)
		require.Nil(t, env, name)
		require.True(t, errors.Is(err, tripwire.ErrInvalidMessage), "%s: %v", name, err)
	}
	env, err := remoting.DeadlineEnvelope("x", nil, now)
	require.NoError(t, err)
	d, ok := remoting.CallDeadline(env.Header, nil)
	require.True(t, ok)
	require.True(t, d.Equal(now), "deadline %v, want %v", d, now)
}
