package tripwire

import (
	"context"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	tactor "github.com/tripwire-go/tripwire/actor"
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
		now := time.Now()
		ctx := context.Background()
		v, err := r.send(ctx, e, tactor.NewCall(ctx, msg, now.Add(e.Config.CallTimeout)), now)
		r.sys.Root.Send(self, &Reply{Key: key, Request: msg, Value: v, Err: err})
	}()
	return nil
}
