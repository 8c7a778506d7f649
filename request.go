package tripwire

import (
	"context"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/observe"
	"github.com/tripwire-go/tripwire/registry"
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
	e, err := r.resolve(context.Background(), key)
	if err != nil {
		return err
	}
	if err := r.checkMessage(&e.Config.Target, msg); err != nil {
		return err
	}
	if oe := e.Cell().Rejection(); oe != nil {
		r.reject(e, self, msg, oe)
		return nil
	}
	callTimeout, max := e.Config.Limits()
	if !e.Cell().Admit(max) {
		r.reject(e, self, msg, ErrOverloaded)
		return nil
	}
	r.life.RLock()
	defer r.life.RUnlock()
	if r.closed.Load() {
		e.Cell().Done(max)
		return ErrShutdown
	}
	r.requests.Add(1)
	go func() {
		defer r.requests.Done()
		defer e.Cell().Done(max)
		v, err := r.forward(context.Background(), e, msg, callTimeout)
		r.sys.Root.Send(self, &Reply{Key: key, Request: msg, Value: v, Err: err})
	}()
	return nil
}

// reject answers a request at once, as the breaker would have.
func (r *Registry) reject(e *registry.Entry, self *actor.PID, msg any, err error) {
	if e.Meter != nil {
		e.Meter.Call(context.Background(), observe.Rejected, 0)
	}
	r.sys.Root.Send(self, &Reply{Key: e.Key, Request: msg, Err: err})
}
