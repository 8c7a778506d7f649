package policies

import (
	"context"
	"errors"
	"fmt"
	"strings"
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

	supID  string // see breakerActors
	maxSeq int
}

// inBubble runs body in fake time with a fresh actor system and a registry
// started with opts. Both are shut down when body ends (also when it fails),
// and fake time then runs on so that protoactor's dead-letter throttle
// goroutine and idle workers exit before the bubble closes.
func inBubble(t *testing.T, body func(t *testing.T, e *env), opts ...tripwire.Option) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		sys := tripwire.NewActorSystem(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
		reg, err := tripwire.Start(sys, opts...)
		if err != nil {
			t.Fatalf("Start: %v", err)
		}
		t.Cleanup(func() {
			if err := reg.Shutdown(context.Background()); err != nil {
				t.Errorf("Shutdown: %v", err)
			}
			sys.Shutdown()
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

// wantCircuit checks both views of a key's circuit (the published state and
// the breaker's own snapshot) after the breaker finished its turns.
func wantCircuit(t *testing.T, reg *tripwire.Registry, key string, st tripwire.State, failures int) tripwire.Snapshot {
	t.Helper()
	synctest.Wait()
	got, err := reg.State(key)
	if err != nil {
		t.Fatalf("State(%q): %v", key, err)
	}
	s := snapshot(t, reg, key)
	if got != st || s.State != st || s.Failures != failures {
		t.Fatalf("%q: State()=%v, Snapshot state=%v failures=%d; want %v with %d failures",
			key, got, s.State, s.Failures, st, failures)
	}
	return s
}

// wantState checks only the published state, which never wakes a key.
func wantState(t *testing.T, reg *tripwire.Registry, key string, st tripwire.State) {
	t.Helper()
	synctest.Wait()
	got, err := reg.State(key)
	if err != nil || got != st {
		t.Fatalf("State(%q) = %v, %v; want %v", key, got, err, st)
	}
}

// result is what one Call returned, and when.
type result struct {
	v   any
	err error
	at  time.Time
}

// goCall runs reg.Call on its own goroutine; the result arrives on the channel.
func goCall(reg *tripwire.Registry, key string, msg any) <-chan result {
	ch := make(chan result, 1)
	go func() {
		v, err := reg.Call(context.Background(), key, msg)
		ch <- result{v: v, err: err, at: time.Now()}
	}()
	return ch
}

// await returns the result of a goCall; a day of fake time without one fails.
func await(t *testing.T, ch <-chan result) result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(24 * time.Hour):
		t.Fatalf("no reply within a day of fake time")
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

// call makes one call and returns its value and error.
func call(reg *tripwire.Registry, key string, msg any) (any, error) {
	return reg.Call(context.Background(), key, msg)
}

// errTarget is what the scripted target fails with.
var errTarget = errors.New("target failed")

// op tells the scripted function target what to do with one call. The zero
// op answers "ok" at once.
type op struct {
	After time.Duration // fake time spent in the target before answering
	Fail  bool          // answer with errTarget
	Err   error         // answer with this error (if set)
	Value any           // answer with this value (default "ok")
	Hang  bool          // wait for the call's context to end
	Gate  chan bool     // wait for a verdict: true succeeds, false fails
}

// script is a function target driven by op messages. It counts the calls
// that reached it and the most that ran at once.
type script struct {
	calls   atomic.Int64
	running atomic.Int64
	peak    atomic.Int64
}

func (s *script) target() tripwire.Target {
	return tripwire.FuncTarget(func(ctx context.Context, msg any) (any, error) {
		s.calls.Add(1)
		n := s.running.Add(1)
		defer s.running.Add(-1)
		for p := s.peak.Load(); n > p && !s.peak.CompareAndSwap(p, n); p = s.peak.Load() {
		}
		o, ok := msg.(op)
		if !ok {
			return nil, fmt.Errorf("script: unexpected message %T", msg)
		}
		switch {
		case o.Hang:
			return hang(ctx)
		case o.Gate != nil:
			select {
			case ok := <-o.Gate:
				if !ok {
					return nil, errTarget
				}
			case <-ctx.Done():
				return hang(ctx)
			}
		}
		time.Sleep(o.After)
		switch {
		case o.Err != nil:
			return o.Value, o.Err
		case o.Fail:
			return nil, errTarget
		case o.Value != nil:
			return o.Value, nil
		}
		return "ok", nil
	})
}

// hang is a target that never answers by itself: it notices the end of its
// context a millisecond late, as real code does, so its late result never
// ties with the breaker's deadline timer.
func hang(ctx context.Context) (any, error) {
	<-ctx.Done()
	time.Sleep(time.Millisecond)
	return nil, ctx.Err()
}

var (
	okOp   = op{}
	failOp = op{Fail: true}
)

// wantOK fails unless a call succeeded with the default value.
func wantOK(t *testing.T, what string, v any, err error) {
	t.Helper()
	if err != nil || v != "ok" {
		t.Fatalf("%s: %v, %v; want ok", what, v, err)
	}
}

// wantErr fails unless err matches target.
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: error %v; want %v", what, err, target)
	}
}

// transitions records every transition the registry publishes.
type transitions struct {
	mu   sync.Mutex
	list []tripwire.Transition
}

func record(t *testing.T, reg *tripwire.Registry) *transitions {
	tr := &transitions{}
	stop := reg.Subscribe(func(x tripwire.Transition) {
		tr.mu.Lock()
		tr.list = append(tr.list, x)
		tr.mu.Unlock()
	})
	t.Cleanup(stop)
	return tr
}

// all returns the transitions delivered so far, once deliveries settled.
func (tr *transitions) all() []tripwire.Transition {
	synctest.Wait()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]tripwire.Transition(nil), tr.list...)
}

// last returns the latest transition, or fails if there is none.
func (tr *transitions) last(t *testing.T) tripwire.Transition {
	t.Helper()
	all := tr.all()
	if len(all) == 0 {
		t.Fatalf("no transition recorded")
	}
	return all[len(all)-1]
}

// wantTransitions compares the recorded transitions with want, as
// "from->to:reason" strings.
func (tr *transitions) want(t *testing.T, want ...string) []tripwire.Transition {
	t.Helper()
	all := tr.all()
	got := make([]string, len(all))
	for i, x := range all {
		got[i] = fmt.Sprintf("%v->%v:%s", x.From, x.To, x.Reason)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("transitions:\n got  %v\n want %v", got, want)
	}
	return all
}

// breakerActors returns the ids of the live breaker actors of key, as the
// actor system's process registry lists them. A breaker is the supervisor's
// child named "<key>#<n>", n counting the supervisor's spawns; the
// supervisor's id is found once by scanning the registry, and the breakers
// are then looked up by id.
func (e *env) breakerActors(key string) []string {
	if e.supID == "" {
		for _, m := range e.sys.ProcessRegistry.LocalPIDs.LocalPIDs {
			for _, id := range m.Keys() {
				if strings.HasPrefix(id, "tripwire-") && !strings.Contains(id, "/") {
					e.supID = id
				}
			}
		}
	}
	var ids []string
	for n := 1; n <= e.maxSeq+64; n++ {
		id := fmt.Sprintf("%s/%s#%d", e.supID, key, n)
		if _, ok := e.sys.ProcessRegistry.GetLocal(id); ok {
			ids = append(ids, id)
			e.maxSeq = max(e.maxSeq, n)
		}
	}
	return ids
}

// actorFunc makes an actor of a function.
type actorFunc func(actor.Context)

func (f actorFunc) Receive(c actor.Context) { f(c) }

// isOpen reports whether err is the circuit-open error.
func isOpen(err error) bool { return errors.Is(err, tripwire.ErrOpen) }

// advance lets d of fake time pass, and then lets every timer that went off
// at that instant finish its work, so that a call made next does not tie
// with it.
func advance(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

func isErr(err, target error) bool { return errors.Is(err, target) }
