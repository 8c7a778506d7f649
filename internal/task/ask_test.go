package task_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// release tells the target to answer the request it holds.
type release struct{ value any }

// spawnTarget starts an actor target: "ping" gets "pong", "fail" gets an
// error value, "twice" gets two replies, "hold" is answered on release.
func spawnTarget(sys *actor.ActorSystem) *actor.PID {
	var held *actor.PID
	return sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		switch m := c.Message().(type) {
		case string:
			switch m {
			case "ping":
				c.Respond("pong")
			case "fail":
				c.Respond(errTarget)
			case "twice":
				c.Respond("first")
				c.Respond("second")
			case "hold":
				held = c.Sender()
			}
		case *release:
			c.Send(held, m.value)
		}
	}))
}

func TestAskOutcomes(t *testing.T) {
	tests := []struct {
		name     string
		msg      string
		dead     bool
		classify task.Classifier
		want     task.Completion
	}{
		{"a reply is the value", "ping", false, nil, task.Completion{Value: "pong"}},
		{"an error reply is a failure with that error", "fail", false, nil,
			task.Completion{Err: errTarget, Failed: true}},
		{"the classifier decides on an error reply", "fail", false, task.FailureIf(func(any, error) bool { return false }),
			task.Completion{Err: errTarget}},
		{"a dead target is ErrTargetDown", "ping", true, nil,
			task.Completion{Err: errs.ErrTargetDown, Failed: true}},
		{"a target replying twice gives one outcome, the first", "twice", false, nil,
			task.Completion{Value: "first"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
				// Given a target, live or dead
				target := spawnTarget(sys)
				if tt.dead {
					require.NoError(t, sys.Root.StopFuture(target).Wait())
				}
				c := newCollector()

				// When it is asked
				task.NewAsk(newPool(t, sys), &task.Sender{}, target, tt.msg, time.Time{}, task.HeaderRemote, c, tt.classify)

				// Then exactly one Completion comes back, tagged with its courier
				got := c.settled()
				require.Len(t, got, 1)
				want := tt.want
				want.Call = c
				require.Equal(t, &want, got[0])
			})
		})
	}
}

func TestAskAbandonedIgnoresTheReply(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given an ask whose target holds the request
		target, c := spawnTarget(sys), newCollector()
		a := task.NewAsk(newPool(t, sys), &task.Sender{}, target, "hold", time.Time{}, task.HeaderRemote, c, nil)
		require.Empty(t, c.settled())

		// When the ask is abandoned and the target then replies
		a.Abandon()
		sys.Root.Send(target, &release{value: "late"})

		// Then no Outcome is reported
		require.Empty(t, c.settled())
	})
}

func TestAskHeldReplyIsReported(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given an ask whose target holds the request (the control for the
		// abandoned case)
		target, c := spawnTarget(sys), newCollector()
		task.NewAsk(newPool(t, sys), &task.Sender{}, target, "hold", time.Time{}, task.HeaderRemote, c, nil)
		require.Empty(t, c.settled())

		// When the target replies later
		sys.Root.Send(target, &release{value: "late"})

		// Then that reply is the Outcome
		got := c.settled()
		require.Len(t, got, 1)
		require.Equal(t, &task.Completion{Call: c, Value: "late"}, got[0])
	})
}

// newPool returns a pool, and the router of its asks, in sys until the
// test ends.
func newPool(t *testing.T, sys *actor.ActorSystem) *task.Pool {
	p := task.NewPool(sys)
	t.Cleanup(func() { _ = p.Close(context.Background()) })
	return p
}

// holder keeps every "hold" request and answers each, on release, with
// the message it was asked.
func holder(sys *actor.ActorSystem) *actor.PID {
	var held []*actor.PID
	var asked []any
	return sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		switch m := c.Message().(type) {
		case int:
			held, asked = append(held, c.Sender()), append(asked, m)
		case *release:
			for i := len(held) - 1; i >= 0; i-- { // newest first
				c.Send(held[i], asked[i])
			}
		}
	}))
}

func TestRouterGivesEachAskItsOwnReply(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given many asks through one router to a target that holds them
		p, target := newPool(t, sys), holder(sys)
		const n = 50
		collectors := make([]*collector, n)
		for i := range n {
			collectors[i] = newCollector()
			task.NewAsk(p, &task.Sender{}, target, i, time.Time{}, task.HeaderRemote, collectors[i], nil)
		}

		// When the target answers them all, in the reverse order
		sys.Root.Send(target, &release{})

		// Then every ask gets exactly its own answer
		for i, c := range collectors {
			got := c.settled()
			require.Len(t, got, 1, "ask %d", i)
			require.Equal(t, &task.Completion{Call: c, Value: i}, got[0], "ask %d", i)
		}
	})
}

func TestRouterClosedDropsReplies(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given an ask whose target holds the request
		p, target, c := task.NewPool(sys), holder(sys), newCollector()
		task.NewAsk(p, &task.Sender{}, target, 1, time.Time{}, task.HeaderRemote, c, nil)

		// When the router is closed (with its pool) and the target then replies
		require.NoError(t, p.Close(context.Background()))
		sys.Root.Send(target, &release{})

		// Then the reply reaches no ask
		require.Empty(t, c.settled())
	})
}

func TestAskFoundWaitingWhileItStartsIsWhole(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given asks started one after another on a goroutine of their
		// own, to a target that holds them all
		p, target := newPool(t, sys), holder(sys)
		const n = 300
		started := make(chan struct{})
		go func() {
			defer close(started)
			for i := range n {
				task.NewAsk(p, &task.Sender{}, target, i, time.Time{}, task.HeaderRemote, newCollector(), nil)
			}
		}()

		// When another goroutine abandons every ask it finds waiting,
		// meanwhile (as a breaker does when its target dies)
		abandoned := 0
		sweep := func() {
			for _, a := range p.Replies().Waiting(nil) { // the collector says no owner
				if a.Abandon() {
					abandoned++
				}
			}
		}
		for running := true; running; {
			select {
			case <-started:
				running = false
			default:
				runtime.Gosched()
			}
			sweep()
		}
		sweep()

		// Then each ask was abandoned exactly once, and (under -race) was
		// whole when it was found: its sender PID was set before it waited
		require.Equal(t, n, abandoned)
	})
}
