package tripwire

import (
	"context"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/observe"
)

// Request is Call for an actor: it returns at once, and the actor behind
// actx later receives exactly one *Reply with the outcome. Bad input (a nil
// context, an invalid or unknown key, a registry shut down) is returned as an
// error and then no Reply is sent.
func (r *Registry) Request(actx actor.Context, key string, msg any) error {
	if actx == nil {
		return ErrNilContext
	}
	self := actx.Self()
	if self == nil {
		return fmt.Errorf("%w: actor context without a Self PID", ErrNilContext)
	}
	e, err := r.lookup(key)
	if err != nil {
		return err
	}
	if msg == nil && e.Config.Target.PID != nil {
		return fmt.Errorf("%w: nil message to an actor target", ErrInvalidMessage)
	}
	if e.Cell().Rejecting() {
		if e.Meter != nil {
			e.Meter.Call(context.Background(), observe.Rejected, 0)
		}
		r.sys.Root.Send(self, &Reply{Key: key, Request: msg, Err: ErrOpen})
		return nil
	}
	r.life.RLock()
	defer r.life.RUnlock()
	if r.closed.Load() {
		return ErrShutdown
	}
	r.requests.Add(1)
	go func() {
		defer r.requests.Done()
		v, err := r.forward(context.Background(), e, msg)
		r.sys.Root.Send(self, &Reply{Key: key, Request: msg, Value: v, Err: err})
	}()
	return nil
}
