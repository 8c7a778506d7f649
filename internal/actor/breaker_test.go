package actor

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/state"
)

var errBoom = errors.New("boom")

const (
	threshold   = 2
	openTimeout = 10 * time.Second
	callTimeout = time.Minute
)

// rig is one breaker actor spawned at the root (so protoactor's default
// one-for-one strategy restarts it when it crashes), in front of a function
// whose behaviour is chosen by the message: "fail" fails, a channel blocks
// until the channel is closed and then fails, a later blocks until it is
// closed and then succeeds, anything else succeeds.
type rig struct {
	t     *testing.T
	sys   *actor.ActorSystem
	cfg   *Config
	pid   *actor.PID
	calls atomic.Int64
}

// inBubble runs body in fake time against a fresh breaker, then stops it.
func inBubble(t *testing.T, body func(t *testing.T, r *rig)) {
	inBubbleWith(t, Rules{}, body)
}

// inBubbleWith is inBubble for a key whose rules are the rig's with
// IdleTimeout set to extra's.
func inBubbleWith(t *testing.T, extra Rules, body func(t *testing.T, r *rig)) {
	synctest.Test(t, func(t *testing.T) {
		sys := actor.NewActorSystem(
			actor.WithDeadLetterThrottleInterval(10*time.Millisecond),
			actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }),
		)
		r := &rig{t: t, sys: sys}
		r.cfg = &Config{}
		r.cfg.Init("k", Callee{Func: r.target},
			&Rules{Circuit: state.Settings{Threshold: threshold, OpenTimeout: openTimeout}, CallTimeout: callTimeout, IdleTimeout: extra.IdleTimeout},
			&Shared{Pool: task.NewPool(sys), Logger: zap.NewNop()})
		spawner := NewSpawner(func(string) (*Config, bool) { return r.cfg, true },
			actor.DefaultSupervisorStrategy(), func(string) {})
		var err error
		if r.pid, err = spawner.Spawn(sys.Root, r.cfg, "k#1"); err != nil {
			t.Fatal(err)
		}

		body(t, r)

		require.NoError(t, sys.Root.StopFuture(r.pid).Wait())
		require.NoError(t, r.cfg.Shared.Pool.Close(context.Background()))
		sys.Shutdown()
		time.Sleep(time.Minute)
		synctest.Wait()
	})
}

func (r *rig) target(_ context.Context, msg any) (any, error) {
	r.calls.Add(1)
	switch m := msg.(type) {
	case chan struct{}:
		<-m
		return nil, errBoom
	case later:
		<-m
		return "late", nil
	case string:
		if m == "fail" {
			return nil, errBoom
		}
	}
	return msg, nil
}

// later is a message whose target succeeds once it is closed.
type later chan struct{}

// send hands the breaker a call for msg due in callTimeout.
func (r *rig) send(msg any) *Call {
	now := time.Now()
	c := newCall(context.Background(), msg, now.Add(callTimeout), now)
	r.sys.Root.Send(r.pid, c)
	return c
}

// call sends msg and waits for its one answer.
func (r *rig) call(msg any) Result { return answer(r.send(msg)) }

// answer waits for c's answer.
func answer(c *Call) Result {
	for range c.signal {
		if ask, res := c.take(); ask == nil {
			return res
		}
	}
	panic("unreachable")
}

func (r *rig) snapshot() Snapshot {
	s := r.fullSnapshot()
	// the tests compare the rest (fullSnapshot has all)
	s.Key, s.Rules, s.Stats, s.Since, s.Reason = "", nil, state.Stats{}, time.Time{}, state.ReasonNone
	return s
}

// fullSnapshot is the breaker's snapshot as it sends it.
func (r *rig) fullSnapshot() Snapshot {
	reply := make(chan Report, 1)
	r.sys.Root.Send(r.pid, &SnapshotRequest{Reply: reply})
	s := (<-reply).Snapshot
	require.Equal(r.t, r.cfg.Key, s.Key)
	require.Same(r.t, r.cfg.Rules(), s.Rules)
	return s
}

// trip fails threshold calls, so the breaker opens now.
func (r *rig) trip() {
	for range threshold {
		require.ErrorIs(r.t, r.call("fail").Err, errBoom)
	}
	require.Equal(r.t, state.Open, r.snapshot().State)
}

// crash makes the breaker panic and waits until its next incarnation runs.
func (r *rig) crash() {
	before := r.cfg.Cell.incarnation.Load()
	r.sys.Root.Send(r.pid, &Crash{})
	s := r.snapshot()
	require.Equal(r.t, before+1, r.cfg.Cell.incarnation.Load(), "the breaker did not restart")
	require.Equal(r.t, state.Closed, s.State)
	require.Zero(r.t, s.Failures)
}

// unanswered reports whether c is still unanswered.
func unanswered(c *Call) bool { return len(c.signal) == 0 }

// genAfterTrip is the generation a breaker of incarnation inc is in after
// tripping from closed: the tag of the recovery timer it starts.
func genAfterTrip(inc uint64) state.Gen {
	c := state.New(&state.Settings{Threshold: threshold, OpenTimeout: openTimeout}, inc)
	for range threshold {
		c.Apply(state.Event{Kind: state.Failed, Gen: c.Gen}, time.Now(), nil)
	}
	return c.Gen
}

func TestStaleRecoveryTimerAfterRestartIsIgnored(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a breaker that opened at t=0, crashed, and opened again at
		// t=3s in its next incarnation
		r.trip()
		stale := genAfterTrip(uint64(r.cfg.Cell.incarnation.Load()))
		r.crash()
		time.Sleep(3 * time.Second)
		r.trip()
		require.Equal(t, stale.Seq, genAfterTrip(uint64(r.cfg.Cell.incarnation.Load())).Seq,
			"the test needs the old and the new timer to differ only in incarnation")

		// When the first incarnation's recovery timer arrives
		r.sys.Root.Send(r.pid, &recoveryTimer{Gen: stale})
		synctest.Wait()

		// Then it changes nothing, neither now nor when it was due (t=10s)
		require.Equal(t, state.Open, r.snapshot().State)
		require.Equal(t, state.Open, r.cfg.Cell.State())
		time.Sleep(openTimeout - 3*time.Second + time.Millisecond)
		require.Equal(t, state.Open, r.snapshot().State)

		// And the current timer half-opens it at t=13s
		time.Sleep(3 * time.Second)
		synctest.Wait()
		require.Equal(t, state.HalfOpen, r.snapshot().State)
		require.Equal(t, state.HalfOpen, r.cfg.Cell.State())
	})
}

func TestStaleOutcomeAfterRestartIsIgnored(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a call hung in the target when the breaker crashed: it
		// carries over to the new incarnation, still unanswered
		oldGate := make(chan struct{})
		old := r.send(oldGate)
		synctest.Wait()
		r.crash()
		require.True(t, unanswered(old))

		// And, in the new incarnation, one failure short of opening, with
		// another call in flight
		require.ErrorIs(t, r.call("fail").Err, errBoom)
		newGate := make(chan struct{})
		inflight := r.send(newGate)
		synctest.Wait()
		require.Equal(t, Snapshot{State: state.Closed, Failures: 1, InFlight: 2}, r.snapshot())

		// When the old call's target fails at last
		close(oldGate)
		synctest.Wait()

		// Then its caller gets the target's answer, and it changes nothing:
		// still closed, one failure, the other call still in flight and
		// unanswered
		require.ErrorIs(t, answer(old).Err, errBoom)
		require.Equal(t, Snapshot{State: state.Closed, Failures: 1, InFlight: 1}, r.snapshot())
		require.EqualValues(t, 1, r.fullSnapshot().Stats.Total.Failures, "nor in the statistics")
		require.True(t, unanswered(inflight))
		close(newGate)
		require.ErrorIs(t, answer(inflight).Err, errBoom)
		require.Equal(t, state.Open, r.snapshot().State, "the current call's failure must count")
	})
}

func TestWithdrawInHalfOpenFreesTheProbe(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a half-open breaker whose probe hangs in the target
		r.trip()
		time.Sleep(openTimeout + time.Millisecond)
		synctest.Wait()
		require.Equal(t, state.HalfOpen, r.snapshot().State)
		gate := make(chan struct{})
		defer close(gate)
		probe := r.send(gate)
		synctest.Wait()
		require.EqualValues(t, threshold+1, r.calls.Load())
		require.ErrorIs(t, r.call("other").Err, errs.ErrOpen, "a second probe was let through")

		// When the probe's caller withdraws it
		require.True(t, probe.withdraw())
		r.sys.Root.Send(r.pid, &withdrawal{Call: probe})

		// Then the next call is the probe: it reaches the target and closes
		// the circuit, and the withdrawn call gets no answer
		res := r.call("next")
		require.NoError(t, res.Err)
		require.Equal(t, "next", res.Value)
		require.EqualValues(t, threshold+2, r.calls.Load())
		require.Equal(t, Snapshot{State: state.Closed}, r.snapshot())
		require.True(t, unanswered(probe))
	})
}

func TestStopAnswersCallsInFlight(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given two calls hung in the target
		gate := make(chan struct{})
		defer close(gate)
		calls := []*Call{r.send(gate), r.send(gate)}
		synctest.Wait()
		require.Equal(t, 2, r.snapshot().InFlight)
		start := time.Now()

		// When the breaker is stopped after being retired (unregistered)
		r.cfg.Cell.Retire(errs.ErrShutdown)
		require.NoError(t, r.sys.Root.StopFuture(r.pid).Wait())

		// Then each gets the cell's stop error at once, exactly once
		for _, c := range calls {
			require.ErrorIs(t, answer(c).Err, errs.ErrShutdown)
			require.False(t, c.Settle(Result{}), "a call was answered twice")
		}
		require.Zero(t, time.Since(start))
	})
}

func TestCrashCarriesCallsInFlightOver(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given two calls hung in the target
		gates := []chan struct{}{make(chan struct{}), make(chan struct{})}
		calls := []*Call{r.send(gates[0]), r.send(gates[1])}
		synctest.Wait()
		require.Equal(t, 2, r.snapshot().InFlight)

		// When the breaker crashes
		r.crash()

		// Then the calls are still in flight, in the new incarnation
		require.Equal(t, Snapshot{State: state.Closed, InFlight: 2}, r.snapshot())
		for _, c := range calls {
			require.True(t, unanswered(c))
		}
		// and each gets its target's answer when it comes (both fail, one
		// short of the threshold's two), exactly once; they count for
		// nothing: the circuit stays closed with no failures
		for i, c := range calls {
			close(gates[i])
			require.ErrorIs(t, answer(c).Err, errBoom)
			require.False(t, c.Settle(Result{}), "a call was answered twice")
		}
		require.Equal(t, Snapshot{State: state.Closed}, r.snapshot())
	})
}

func TestAWithdrawnCallCarriedOverACrashCountsNowhereButKeepsTheKeyAwake(t *testing.T) {
	const idle = 10 * time.Second
	inBubbleWith(t, Rules{IdleTimeout: idle}, func(t *testing.T, r *rig) {
		// Given a call hung in its target when the breaker crashed
		gate := make(chan struct{})
		defer close(gate)
		old := r.send(gate)
		synctest.Wait()
		r.crash()

		// When its caller withdraws it 9 s later
		time.Sleep(9 * time.Second)
		require.True(t, old.withdraw())
		r.sys.Root.Send(r.pid, &withdrawal{Call: old})
		synctest.Wait()

		// Then it counts nowhere
		s := r.fullSnapshot()
		require.Zero(t, s.Stats.Total.Canceled)
		require.Zero(t, s.InFlight)
		// and the key stays up for IdleTimeout from the withdrawal
		time.Sleep(idle - time.Second)
		synctest.Wait()
		require.False(t, r.cfg.Cell.Passivated())
	})
}
