package task_test

import (
	"math"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// deadlineEcho answers each request with the deadlines found in its
// header and in its sender: a time.Time each, or false.
func deadlineEcho(sys *actor.ActorSystem) *actor.PID {
	found := func(d time.Time, ok bool) any {
		if ok {
			return d
		}
		return false
	}
	return sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if _, ok := c.Message().(string); !ok {
			return
		}
		c.Respond([2]any{found(task.Deadline(c.MessageHeader())), found(task.SenderDeadline(c.Sender()))})
	}))
}

func TestAskCarriesTheDeadlineInItsSenderAndWhereAskedInItsHeader(t *testing.T) {
	deadline := time.Now().Add(1500 * time.Millisecond)
	for name, tc := range map[string]struct {
		deadline        time.Time
		header          task.Header
		inHeader, inPID any
	}{
		"a local target":    {deadline, task.HeaderRemote, false, deadline},
		"HeaderAlways":      {deadline, task.HeaderAlways, deadline, deadline},
		"HeaderNever":       {deadline, task.HeaderNever, false, deadline},
		"no deadline":       {time.Time{}, task.HeaderAlways, false, false},
		"past the header's": {time.Unix(0, math.MaxInt64).Add(time.Hour), task.HeaderAlways, false, false},
	} {
		t.Run(name, func(t *testing.T) {
			testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
				// Given a target that reports the deadlines it finds
				target, c := deadlineEcho(sys), newCollector()

				// When it is asked
				task.NewAsk(newPool(t, sys), &task.Sender{}, target, "x", tc.deadline, tc.header, c, nil)
				got := c.await(t, 1)[0].Value.([2]any)

				// Then the header and the sender carry the deadline, to the
				// nanosecond, where they should
				for i, want := range []any{tc.inHeader, tc.inPID} {
					if w, ok := want.(time.Time); ok {
						require.True(t, w.Equal(got[i].(time.Time)), "%d: got %v, want %v", i, got[i], w)
					} else {
						require.Equal(t, want, got[i], "%d", i)
					}
				}
			})
		})
	}
}

func TestSenderDeadlineIsFalseForAPIDThatIsNoAsksSender(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		pid := sys.Root.Spawn(actor.PropsFromFunc(func(actor.Context) {}))
		for name, p := range map[string]*actor.PID{"nil": nil, "an actor's": pid, "a new one": actor.NewPID("host:1", "x")} {
			_, ok := task.SenderDeadline(p)
			require.False(t, ok, name)
		}
	})
}

func TestDeadlineRejectsWhatItCannotRead(t *testing.T) {
	for name, h := range map[string]actor.ReadonlyMessageHeader{
		"nil":          nil,
		"absent":       actor.EmptyMessageHeader,
		"not a number": (&actor.MessageEnvelope{Header: map[string]string{task.DeadlineHeader: "soon"}}).Header,
	} {
		t.Run(name, func(t *testing.T) {
			_, ok := task.Deadline(h)
			require.False(t, ok)
		})
	}
}
