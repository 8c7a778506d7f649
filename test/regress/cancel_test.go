package regress

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// hold asks the holding actor target to keep the request unanswered.
type hold struct{}

// answerHeld tells the holding actor to answer its held request with Value.
type answerHeld struct{ Value any }

// holdTarget is a target that answers a call only when the test says so:
// an actor (keeping the request's sender) or a function (ignoring its context).
type holdTarget interface {
	target() tripwire.Target
	// answerLater makes the call now in the target answer v.
	answerLater(v any)
	// ctxErr is the held call's context error when it was answered (only
	// known for a function target).
	ctxErr() (error, bool)
}

type actorHolder struct {
	e   *testkit.Env
	pid *actor.PID
}

func newActorHolder(e *testkit.Env) *actorHolder {
	var held *actor.PID
	pid := spawnActor(e, func(c actor.Context) {
		switch m := c.Message().(type) {
		case *hold:
			held = c.Sender()
		case *answerHeld:
			c.Send(held, m.Value)
		default:
			c.Respond(m) // answered at once
		}
	})
	return &actorHolder{e: e, pid: pid}
}

func (h *actorHolder) target() tripwire.Target { return tripwire.ActorTarget(h.pid) }
func (h *actorHolder) answerLater(v any)       { h.e.Sys.Root.Send(h.pid, &answerHeld{Value: v}) }
func (h *actorHolder) ctxErr() (error, bool)   { return nil, false }

type funcHolder struct {
	answers chan any
	seen    chan error
	quit    chan struct{} // closed when the test ends, so Shutdown never waits on a held call
}

func newFuncHolder(t *testing.T) *funcHolder {
	h := &funcHolder{answers: make(chan any), seen: make(chan error, 1), quit: make(chan struct{})}
	t.Cleanup(func() { close(h.quit) })
	return h
}

func (h *funcHolder) target() tripwire.Target {
	return tripwire.Func(func(ctx context.Context, msg any) (any, error) {
		if _, ok := msg.(*hold); !ok {
			if err, isErr := msg.(error); isErr {
				return nil, err
			}
			return msg, nil // answered at once
		}
		var v any
		select { // ignores ctx, like careless code
		case v = <-h.answers:
		case <-h.quit:
			return nil, errLate
		}
		h.seen <- ctx.Err()
		if err, isErr := v.(error); isErr {
			return nil, err
		}
		return v, nil
	})
}

func (h *funcHolder) answerLater(v any) { h.answers <- v }
func (h *funcHolder) ctxErr() (error, bool) {
	return <-h.seen, true
}

// TestReplyToCancelledCaller guards "reply to a caller that is gone"
// (notes/testing.md §2b "late replies are dropped", §3 item 6; protoactor's
// late reply that becomes a dead letter, notes/protoactor.md §4): a caller
// cancels its context while the target holds its call, and the target answers
// afterwards. The caller gets context.Canceled once, at the cancellation; the
// late answer, success or failure, changes nothing; nothing leaks (goleak in
// TestMain, and synctest fails on a goroutine left blocked in the bubble).
func TestReplyToCancelledCaller(t *testing.T) {
	for _, tc := range []struct {
		name   string
		holder func(t *testing.T, e *testkit.Env) holdTarget
	}{
		{"actor target", func(_ *testing.T, e *testkit.Env) holdTarget { return newActorHolder(e) }},
		{"function target", func(t *testing.T, _ *testkit.Env) holdTarget { return newFuncHolder(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				// Given a breaker (threshold 2) with one failure counted
				h := tc.holder(t, e)
				testkit.Register(t, e.Reg, "held", h.target(), tripwire.Settings{Threshold: 2, CallTimeout: time.Minute})
				if _, err := e.Reg.Call(context.Background(), "held", errTarget); !errors.Is(err, errTarget) {
					t.Fatalf("seeding failure: %v", err)
				}
				testkit.WantCircuit(t, e.Reg, "held", state.Closed, 1)

				// A success counted would reset the failures to 0; a failure
				// counted would open the circuit.
				for _, late := range []any{"late success", errLate} {
					// When a caller's call is held by the target
					ctx, cancel := context.WithCancel(context.Background())
					call := testkit.GoCall(ctx, e.Reg, "held", &hold{})
					testkit.StillPending(t, call, "the held call")
					if snap := testkit.WantCircuit(t, e.Reg, "held", state.Closed, 1); snap.InFlight != 1 {
						t.Fatalf("InFlight = %d with one call held", snap.InFlight)
					}
					// and the caller cancels it after 1 s
					time.Sleep(time.Second)
					cancelledAt := time.Now()
					cancel()

					// Then the caller gets context.Canceled at once
					r := testkit.Await(t, call)
					if !errors.Is(r.Err, context.Canceled) || r.V != nil || !r.At.Equal(cancelledAt) {
						t.Fatalf("cancelled call: %v, %v after %v; want context.Canceled at once",
							r.V, r.Err, r.At.Sub(cancelledAt))
					}
					// and the breaker forgets the call, counting it neither way
					if snap := testkit.WantCircuit(t, e.Reg, "held", state.Closed, 1); snap.InFlight != 0 {
						t.Fatalf("InFlight = %d after the cancellation", snap.InFlight)
					}

					// When the target answers 1 s later
					time.Sleep(time.Second)
					h.answerLater(late)
					// Then the answer changes nothing
					if snap := testkit.WantCircuit(t, e.Reg, "held", state.Closed, 1); snap.InFlight != 0 {
						t.Fatalf("late %v: InFlight = %d", late, snap.InFlight)
					}
					// and a function target saw its context cancelled with the caller's
					if err, known := h.ctxErr(); known && !errors.Is(err, context.Canceled) {
						t.Errorf("target's context error when it answered: %v, want context.Canceled", err)
					}
					// and the caller's result channel got nothing more
					select {
					case r := <-call:
						t.Fatalf("second result for one call: %v, %v", r.V, r.Err)
					default:
					}
				}

				// Then the breaker still answers calls and counts them
				if v, err := e.Reg.Call(context.Background(), "held", "now"); err != nil || v != "now" {
					t.Fatalf("call after the late answers: %v, %v", v, err)
				}
				testkit.WantCircuit(t, e.Reg, "held", state.Closed, 0)
			})
		})
	}
}
