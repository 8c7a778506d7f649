package task_test

import (
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/task"
)

// headerEcho answers each request with the deadline found in its header,
// or false if it has none.
func headerEcho(sys *actor.ActorSystem) *actor.PID {
	return sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if _, ok := c.Message().(string); !ok {
			return
		}
		if d, ok := task.Deadline(c.MessageHeader()); ok {
			c.Respond(d)
			return
		}
		c.Respond(false)
	}))
}

func TestAskCarriesTheDeadline(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a target that reports the deadline header of what it gets
		target, c := headerEcho(sys), newCollector()
		deadline := time.Now().Add(1500 * time.Millisecond)

		// When it is asked with a deadline, and without one
		task.NewAsk(newPool(t, sys), &task.Sender{}, target, "with", deadline, c, nil)
		with := c.await(t, 1)
		task.NewAsk(newPool(t, sys), &task.Sender{}, target, "without", time.Time{}, c, nil)
		without := c.await(t, 1)

		// Then the first carries the deadline to the nanosecond, the second none
		require.True(t, deadline.Equal(with[0].Value.(time.Time)), "got %v, want %v", with[0].Value, deadline)
		require.Equal(t, false, without[0].Value)
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
