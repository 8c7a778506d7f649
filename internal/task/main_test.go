package task_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// TestMain fails the package if a worker or an actor goroutine outlives the tests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// token is the Call of a job or an ask in the tests: a name, and nothing
// the data plane asks of a call but to take the reply of an ask (which it
// drops), with no owner, and admitted.
type token struct{ name any }

func (token) Release()                     {}
func (token) Deliver(*task.Ask)            {}
func (token) Owner() task.Inbox            { return nil }
func (token) Admitted() bool               { return true }
func (token) Redirect()                    {}
func (token) Finish(*task.Completion) bool { return false }

// collector gathers completions: it is the Call of asks and the Inbox of
// jobs, which post to it directly.
type collector struct {
	token
	got chan *task.Completion
}

func newCollector() *collector {
	return &collector{got: make(chan *task.Completion, 1000)}
}

// Deliver takes an ask's reply, as a waiting caller does.
func (c *collector) Deliver(a *task.Ask) {
	o := *a.Completion()
	c.got <- &o
}

// PostUserMessage takes the Outcome of a job.
func (c *collector) PostUserMessage(msg any) {
	if o, ok := msg.(*task.Completion); ok {
		c.got <- o
	}
}

// await waits, in fake time, for n Outcomes, then checks that no other
// Outcome is on its way, and returns them.
func (c *collector) await(t *testing.T, n int) []*task.Completion {
	t.Helper()
	out := make([]*task.Completion, 0, n)
	for range n {
		out = append(out, <-c.got)
	}
	extra := c.settled()
	if len(extra) > 0 {
		t.Fatalf("%d more Outcomes than the %d expected: %+v", len(extra), n, extra[0])
	}
	return out
}

// settled returns every Outcome received once all goroutines of the bubble
// are idle, so nothing more can arrive.
func (c *collector) settled() []*task.Completion { return testkit.Drain(c.got) }
