package registry

import (
	"sync"

	"github.com/asynkron/protoactor-go/actor"

	tactor "github.com/tripwire-go/tripwire/actor"
)

// Binding is one breaker actor serving a key. Done is closed, with Err set,
// once that actor has terminated and answered every call it had taken; a call
// still unanswered then was never seen by it (its mailbox bounced it).
type Binding struct {
	PID  *actor.PID
	mbox *tactor.Mailbox
	done chan struct{}
	once sync.Once
	err  error
}

// NewBinding returns a live binding for the breaker pid that receives
// through mb.
func NewBinding(pid *actor.PID, mb *tactor.Mailbox) *Binding {
	return &Binding{PID: pid, mbox: mb, done: make(chan struct{})}
}

// Post hands msg to the breaker's mailbox (see
// tactor.Mailbox.PostUserMessage): a *tactor.Call is admitted or bounced,
// never lost.
func (b *Binding) Post(msg any) { b.mbox.PostUserMessage(msg) }

// Done is closed when the actor has terminated.
func (b *Binding) Done() <-chan struct{} { return b.done }

// Err is why the actor terminated; valid once Done is closed.
func (b *Binding) Err() error { return b.err }

// Close records err and closes Done; later calls do nothing.
func (b *Binding) Close(err error) {
	b.once.Do(func() {
		b.err = err
		close(b.done)
	})
}
