package test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
)

// env is one actor system with one registry on it, inside a synctest bubble.
type env struct {
	sys *actor.ActorSystem
	reg *tripwire.Registry
}

// inBubble runs body in fake time with a fresh actor system and registry. The
// registry and the system are shut down when body ends (also when it fails),
// and fake time then runs on so that protoactor's dead-letter throttle
// goroutine exits before the bubble closes.
func inBubble(t *testing.T, body func(t *testing.T, e *env)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		sys := tripwire.NewActorSystem(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
		reg, err := tripwire.Start(sys)
		if err != nil {
			t.Fatalf("Start: %v", err)
		}
		t.Cleanup(func() {
			if err := reg.Shutdown(context.Background()); err != nil {
				t.Errorf("Shutdown: %v", err)
			}
			sys.Shutdown()
			// Twice: a dead letter at the very end of the first minute starts
			// a throttle goroutine that the second sleep lets finish.
			for range 2 {
				time.Sleep(time.Minute)
				synctest.Wait()
			}
		})
		body(t, &env{sys: sys, reg: reg})
	})
}

func register(t *testing.T, reg *tripwire.Registry, key string, target tripwire.Target, s tripwire.Settings) {
	t.Helper()
	if err := reg.Register(key, target, s); err != nil {
		t.Fatalf("Register(%q): %v", key, err)
	}
}

func snapshot(t *testing.T, reg *tripwire.Registry, key string) tripwire.Snapshot {
	t.Helper()
	s, err := reg.Snapshot(key)
	if err != nil {
		t.Fatalf("Snapshot(%q): %v", key, err)
	}
	return s
}

// wantCircuit checks both views of a key's circuit: the state the breaker
// publishes for fast fail, and its own snapshot.
func wantCircuit(t *testing.T, reg *tripwire.Registry, key string, state tripwire.State, failures int) tripwire.Snapshot {
	t.Helper()
	synctest.Wait() // let the breaker finish the turn that answered the last call
	st, err := reg.State(key)
	if err != nil {
		t.Fatalf("State(%q): %v", key, err)
	}
	s := snapshot(t, reg, key)
	if st != state || s.State != state || s.Failures != failures {
		t.Fatalf("%q: State()=%v, Snapshot state=%v failures=%d; want %v with %d failures",
			key, st, s.State, s.Failures, state, failures)
	}
	return s
}

// result is what one Call returned, and when.
type result struct {
	v   any
	err error
	at  time.Time
}

// goCall runs reg.Call on its own goroutine; the result arrives on the channel.
func goCall(ctx context.Context, reg *tripwire.Registry, key string, msg any) <-chan result {
	ch := make(chan result, 1)
	go func() {
		v, err := reg.Call(ctx, key, msg)
		ch <- result{v: v, err: err, at: time.Now()}
	}()
	return ch
}

// goCallAfter is goCall that waits for start to be closed, so that many
// callers call at the same moment.
func goCallAfter(ctx context.Context, start <-chan struct{}, reg *tripwire.Registry, key string, msg any) <-chan result {
	ch := make(chan result, 1)
	go func() {
		<-start
		v, err := reg.Call(ctx, key, msg)
		ch <- result{v: v, err: err, at: time.Now()}
	}()
	return ch
}

// await returns the result of a goCall; an hour of fake time without one fails.
func await(t *testing.T, ch <-chan result) result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(time.Hour):
		t.Fatalf("no reply within an hour of fake time")
		return result{}
	}
}

// stillPending fails if the call behind ch has already returned.
func stillPending(t *testing.T, ch <-chan result, what string) {
	t.Helper()
	synctest.Wait()
	select {
	case r := <-ch:
		t.Fatalf("%s returned early: %v, %v", what, r.v, r.err)
	default:
	}
}

// errTarget is what the scripted target fails with.
var errTarget = errors.New("target failed")

// op tells the scripted target what to do with one call. The zero op answers
// at once.
type op struct {
	Label string
	After time.Duration // fake time spent in the target before answering
	Fail  bool          // answer with an error wrapping errTarget
	Hang  bool          // wait for the call's context to end
}

// answer is the scripted target's value for a successful op.
func answer(label string) string { return "done:" + label }

// script is a function target driven by op messages; it counts its invocations.
type script struct {
	calls atomic.Int64
}

func (s *script) target() tripwire.Target {
	return tripwire.FuncTarget(func(ctx context.Context, msg any) (any, error) {
		s.calls.Add(1)
		o, ok := msg.(op)
		if !ok {
			return nil, fmt.Errorf("script: unexpected message %T", msg)
		}
		if o.Hang {
			return hang(ctx)
		}
		time.Sleep(o.After)
		if o.Fail {
			return nil, fmt.Errorf("%s: %w", o.Label, errTarget)
		}
		return answer(o.Label), nil
	})
}

// hang is a target that never answers by itself: it notices the end of its
// context a millisecond late, as real code does, so its late result never
// ties with the breaker's deadline timer at one instant.
func hang(ctx context.Context) (any, error) {
	<-ctx.Done()
	time.Sleep(time.Millisecond)
	return nil, ctx.Err()
}

// asker is an actor that calls Request for every message it is told to send
// and hands every *tripwire.Reply it receives to the test.
type asker struct {
	reg     *tripwire.Registry
	replies chan *tripwire.Reply
	refused chan error
}

// requestAll tells an asker to Request each message from key.
type requestAll struct {
	key  string
	msgs []any
}

func newAsker(e *env) (*actor.PID, *asker) {
	a := &asker{reg: e.reg, replies: make(chan *tripwire.Reply, 1000), refused: make(chan error, 1000)}
	return e.sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return a })), a
}

func (a *asker) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *requestAll:
		for _, msg := range m.msgs {
			if err := a.reg.Request(ctx, m.key, msg); err != nil {
				a.refused <- err
			}
		}
	case *tripwire.Reply:
		a.replies <- m
	}
}

// received returns every reply the asker has got so far.
func (a *asker) received() []*tripwire.Reply {
	synctest.Wait()
	var rs []*tripwire.Reply
	for {
		select {
		case r := <-a.replies:
			rs = append(rs, r)
		default:
			return rs
		}
	}
}

// onePerRequest checks that replies hold exactly one reply for each of msgs,
// and returns them by request.
func onePerRequest(t *testing.T, msgs []any, replies []*tripwire.Reply) map[any]*tripwire.Reply {
	t.Helper()
	byReq := map[any]*tripwire.Reply{}
	for _, r := range replies {
		if _, dup := byReq[r.Request]; dup {
			t.Errorf("second reply for request %v: %v, %v", r.Request, r.Value, r.Err)
		}
		byReq[r.Request] = r
	}
	for _, m := range msgs {
		if _, ok := byReq[m]; !ok {
			t.Errorf("no reply for request %v", m)
		}
	}
	if len(replies) != len(msgs) {
		t.Errorf("got %d replies for %d requests", len(replies), len(msgs))
	}
	return byReq
}
