package tripwire

import (
	"context"
	"errors"

	tactor "github.com/tripwire-go/tripwire/actor"
	"github.com/tripwire-go/tripwire/registry"
)

// wait posts c to its key's mailbox and returns its one answer. The caller
// waits on its call's own channel (and its context's), never on a channel
// other callers share: the breaker answers through it, the backstop expires
// the call through it, and a key that is gone (unregistered, shut down)
// answers it through it. The mailbox belongs to the key, not to one breaker,
// so a call is never lost when a breaker crashes, is respawned or
// passivates: the next breaker of the key takes it (see tactor.Mailbox).
func (r *Registry) wait(ctx context.Context, e *registry.Entry, c *tactor.Call) (any, error) {
	e.Mailbox.PostUserMessage(c)
	cancelled := ctx.Done()
	for {
		if cancelled == nil {
			<-c.Signal()
		} else {
			select {
			case <-c.Signal():
			case <-cancelled:
				cancelled = nil
				if errors.Is(ctx.Err(), context.Canceled) && c.Withdraw() {
					e.Mailbox.PostUserMessage(&tactor.Withdraw{Call: c})
					return nil, ctx.Err()
				}
				// Its deadline (the breaker answers ErrTimeout), or an
				// answer given at this very moment: it is on its way.
				continue
			}
		}
		got, res, courier := c.Take()
		if got == tactor.Answer {
			return res.Value, res.Err
		}
		// The courier step: an actor target's reply, which the breaker
		// must settle. It is classified here, or on a worker if the key has
		// a classifier of its own: user code must never hold a caller past
		// its deadline.
		if courier.Classifies() {
			r.pool.Go(func() { e.Mailbox.PostUserMessage(courier.Completion()) })
			continue
		}
		e.Mailbox.PostUserMessage(courier.Completion())
		// Its turn usually ran inline, on this goroutine: take the answer
		// without blocking again.
		if res, ok := answered(c); ok {
			return res.Value, res.Err
		}
	}
}

// answered returns the call's answer if it is already there, skipping a
// courier outcome that no breaker will take any more.
func answered(c *tactor.Call) (tactor.Result, bool) {
	for {
		select {
		case <-c.Signal():
			if got, res, _ := c.Take(); got == tactor.Answer {
				return res, true
			}
		default:
			return tactor.Result{}, false
		}
	}
}
