package regress

import (
	"context"
	"errors"
	"fmt"
	"sync"
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

// inBubble runs body in fake time with a fresh actor system and registry,
// both shut down when body ends; fake time then runs on so that protoactor's
// dead-letter throttle goroutine exits before the bubble closes.
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
			for range 2 { // a dead letter at the end of the first minute needs a second
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

// wantCircuit checks both views of a key's circuit, the published state and
// the breaker's own snapshot, once the breaker has finished its turn.
func wantCircuit(t *testing.T, reg *tripwire.Registry, key string, state tripwire.State, failures int) tripwire.Snapshot {
	t.Helper()
	synctest.Wait()
	st, err := reg.State(key)
	if err != nil {
		t.Fatalf("State(%q): %v", key, err)
	}
	s, err := reg.Snapshot(key)
	if err != nil {
		t.Fatalf("Snapshot(%q): %v", key, err)
	}
	if st != state || s.State != state || s.Failures != failures {
		t.Fatalf("%q at +%v: State()=%v, Snapshot state=%v failures=%d; want %v with %d failures",
			key, sinceStart(), st, s.State, s.Failures, state, failures)
	}
	return s
}

// bubbleStart is the fake clock's start (midnight UTC 2000-01-01 in every
// synctest bubble), so failure messages can say "+10s".
var bubbleStart = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func sinceStart() time.Duration { return time.Since(bubbleStart) }

// sleepUntil sleeps until the instant t of fake time.
func sleepUntil(t time.Time) { time.Sleep(time.Until(t)) }

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

var (
	errTarget = errors.New("target failed")
	errLate   = errors.New("late second answer")
)

// op tells the scripted function target what to do with one call. The zero
// op answers at once with answer(Label).
type op struct {
	Label string
	After time.Duration   // fake time spent in the target before answering
	Fail  bool            // answer with an error wrapping errTarget
	Panic bool            // panic in the target
	Hang  bool            // wait for the call's context to end, then answer 1 ms late
	Stuck <-chan struct{} // ignore the context: wait until this is closed, then fail
}

func answer(label string) string { return "done:" + label }

// script is a function target driven by op messages; it counts its invocations.
type script struct{ calls atomic.Int64 }

func (s *script) target() tripwire.Target {
	return tripwire.FuncTarget(func(ctx context.Context, msg any) (any, error) {
		s.calls.Add(1)
		o, ok := msg.(op)
		if !ok {
			return nil, fmt.Errorf("script: unexpected message %T", msg)
		}
		switch {
		case o.Panic:
			panic("scripted panic: " + o.Label)
		case o.Hang:
			<-ctx.Done()
			// A millisecond late, as real code is, so the late result never
			// ties with the breaker's deadline timer at one instant.
			time.Sleep(time.Millisecond)
			return nil, ctx.Err()
		case o.Stuck != nil:
			<-o.Stuck
			return nil, fmt.Errorf("%s (stuck): %w", o.Label, errTarget)
		}
		time.Sleep(o.After)
		if o.Fail {
			return nil, fmt.Errorf("%s: %w", o.Label, errTarget)
		}
		return answer(o.Label), nil
	})
}

// actorFunc is an actor target given as a function of its messages; system
// messages (Started, Stopping, ...) never reach it.
type actorFunc func(ctx actor.Context)

func (f actorFunc) Receive(ctx actor.Context) {
	switch ctx.Message().(type) {
	case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
		return
	}
	f(ctx)
}

func spawnActor(e *env, f func(ctx actor.Context)) *actor.PID {
	return e.sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return actorFunc(f) }))
}

// deadLetters records the messages that went to protoactor's dead letters.
type deadLetters struct {
	mu   sync.Mutex
	msgs []any
}

// watchDeadLetters records e's dead letters until the test ends.
func watchDeadLetters(t *testing.T, e *env) *deadLetters {
	d := &deadLetters{}
	sub := e.sys.EventStream.Subscribe(func(ev any) {
		if dl, ok := ev.(*actor.DeadLetterEvent); ok {
			d.mu.Lock()
			d.msgs = append(d.msgs, dl.Message)
			d.mu.Unlock()
		}
	})
	t.Cleanup(func() { e.sys.EventStream.Unsubscribe(sub) })
	return d
}

// replies returns the *tripwire.Reply messages among the dead letters.
func (d *deadLetters) replies() []*tripwire.Reply {
	synctest.Wait()
	d.mu.Lock()
	defer d.mu.Unlock()
	var rs []*tripwire.Reply
	for _, m := range d.msgs {
		if r, ok := m.(*tripwire.Reply); ok {
			rs = append(rs, r)
		}
	}
	return rs
}

// asker is an actor that calls Request for every message it is told to
// send and hands every *tripwire.Reply it receives to the test.
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
