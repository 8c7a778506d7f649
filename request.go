package tripwire

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/registry"
	"github.com/tripwire-go/tripwire/internal/sendhook"
)

// Request is Call for an actor: it returns at once, and the actor behind
// actx later receives exactly one *Reply with the outcome. Bad input (a nil
// context, an invalid or unknown key, a registry shut down) is returned as an
// error and then no Reply is sent. With WithFactory, a key that does not
// exist yet is created off the actor's goroutine, and what the factory
// returns (its error, too) arrives in the Reply.
func (r *Registry) Request(actx actor.Context, key string, msg any) error {
	if r.unusable() {
		return errNoRegistry
	}
	if actx == nil {
		return ErrNilContext
	}
	self := actx.Self()
	if self == nil {
		return fmt.Errorf("%w: actor context without a Self PID", ErrNilContext)
	}
	e, err := r.lookup(key)
	if err != nil {
		if r.factory == nil || !errors.Is(err, ErrUnknownKey) {
			return err
		}
		// Not yet made: the factory runs off the actor's goroutine.
		return r.request(self, key, msg, func() (any, error) { return r.call(context.Background(), key, msg, r.factory, nil) })
	}
	callTimeout, max, refused, err := r.gate(context.Background(), e, msg, nil)
	switch {
	case refused: // answered at once, as the breaker would have
		r.reject(e, self, msg, err)
		return nil
	case err != nil: // bad input: no Reply comes
		return err
	}
	err = r.request(self, key, msg, func() (any, error) {
		return r.forward(context.Background(), e, msg, callTimeout, max, time.Time{}, r.factory)
	})
	if err != nil {
		e.Cell.Done(max)
	}
	return err
}

// request runs call on a goroutine of its own and replies its answer to
// self. Shutdown waits for it.
func (r *Registry) request(self *actor.PID, key string, msg any, call func() (any, error)) error {
	r.life.RLock()
	defer r.life.RUnlock()
	if r.closed.Load() {
		return ErrShutdown
	}
	r.requests.Add(1)
	go func() {
		defer r.requests.Done()
		v, err := call()
		if sendhook.On {
			sendhook.Sent(msg)
		}
		r.sys.Root.Send(self, &Reply{Key: key, Request: msg, Value: v, Err: err})
	}()
	return nil
}

// reject answers a request at once, as the breaker would have (gate
// counted it).
func (r *Registry) reject(e *registry.Entry, self *actor.PID, msg any, err error) {
	if sendhook.On {
		sendhook.Sent(msg)
	}
	r.sys.Root.Send(self, &Reply{Key: e.Key, Request: msg, Err: err})
}
