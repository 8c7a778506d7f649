package regress

import (
	"sync"
	"testing"
	"testing/synctest"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// deadLetters records the messages that went to protoactor's dead letters.
type deadLetters struct {
	mu   sync.Mutex
	msgs []any
}

// watchDeadLetters records e's dead letters until the test ends.
func watchDeadLetters(t *testing.T, e *testkit.Env) *deadLetters {
	d := &deadLetters{}
	sub := e.Sys.EventStream.Subscribe(func(ev any) {
		if dl, ok := ev.(*actor.DeadLetterEvent); ok {
			d.mu.Lock()
			d.msgs = append(d.msgs, dl.Message)
			d.mu.Unlock()
		}
	})
	t.Cleanup(func() { e.Sys.EventStream.Unsubscribe(sub) })
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
