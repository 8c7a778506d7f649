package tripwire

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/registry"
	"github.com/tripwire-go/tripwire/internal/supervisor"
)

// Register adds a breaker for key in front of target. Zero settings fields
// take their defaults. It waits for the registry's supervisor to take the
// key until ctx ends (at most 5 s if ctx has no deadline: then ErrTimeout);
// a ctx that ends first returns its error, and the key may still be
// registered then.
func (r *Registry) Register(ctx context.Context, key string, target Target, s Settings) error {
	_, err := r.register(ctx, key, target, s, byProgram)
	return err
}

// Who registers a key (register): the program, with Register, or the
// factory (Cell.Made).
const (
	byProgram = false
	byFactory = true
)

// register is Register of a key the factory made (made) or the program; it
// returns the key's entry.
func (r *Registry) register(ctx context.Context, key string, target Target, s Settings, made bool) (*registry.Entry, error) {
	if r.unusable() {
		return nil, errNoRegistry
	}
	if ctx == nil {
		return nil, ErrNilContext
	}
	if err := validateKey(key); err != nil {
		return nil, err
	}
	spec, err := r.validateTarget(target)
	if err != nil {
		return nil, err
	}
	if s, err = s.withDefaults(); err != nil {
		return nil, err
	}
	if r.closed.Load() {
		return nil, ErrShutdown
	}
	if ctx.Err() != nil {
		return nil, contextError(ctx)
	}
	callee := tactor.Callee{Func: spec.fn, PID: spec.pid, Contract: spec.contract, Header: spec.header}
	e := registry.NewEntry(key, callee, r.rules.rules(s, spec.pid != nil && !s.IgnoreTargetDown), r.shared)
	e.Cell.Made = made
	reply := make(chan error, 1)
	r.sys.Root.Send(r.sup, &supervisor.Register{Entry: e, Reply: reply})
	if err := r.await(ctx, reply); err != nil {
		return nil, err
	}
	return e, nil
}

func (r *Registry) validateTarget(t Target) (targetSpec, error) {
	spec, ok := specOf(t)
	if !ok {
		return spec, fmt.Errorf("%w: nil Target", ErrInvalidTarget)
	}
	switch {
	case spec.pid == nil && spec.fn == nil:
		return spec, fmt.Errorf("%w: nil PID or function", ErrInvalidTarget)
	case spec.pid != nil && spec.pid.Id == "":
		return spec, fmt.Errorf("%w: PID without an id", ErrInvalidTarget)
	case spec.pid != nil && r.isRemote(spec.pid) && len(r.sys.ProcessRegistry.RemoteHandlers) == 0:
		return spec, fmt.Errorf("%w: %s is on another node, but remote is not started on this actor system", ErrInvalidTarget, spec.pid)
	case spec.pid != nil && r.isOwn(spec.pid):
		return spec, fmt.Errorf("%w: %s is this registry's own actor", ErrInvalidTarget, spec.pid.Id)
	}
	return spec, nil
}

// specOf returns what t describes. Only this package's targets implement
// Target, but a program's type may embed one: a nil embedded Target, or a nil
// pointer to such a type, is no target (and calling through it panics).
func specOf(t Target) (spec targetSpec, ok bool) {
	if t == nil {
		return spec, false
	}
	defer func() {
		if recover() != nil {
			spec, ok = targetSpec{}, false
		}
	}()
	return t.target(), true
}

// isOwn reports whether pid is the registry's supervisor or one of its breakers.
func (r *Registry) isOwn(pid *actor.PID) bool {
	if pid.Address != r.sup.Address && pid.Address != localAddress {
		return false
	}
	return pid.Id == r.sup.Id || strings.HasPrefix(pid.Id, r.sup.Id+"/")
}

// Unregister stops key's breaker and removes the key. Calls it had in flight
// get ErrShutdown; later calls get ErrUnknownKey. It waits for the
// registry's supervisor to remove the key until ctx ends (at most 5 s if
// ctx has no deadline: then ErrTimeout); a ctx that ends first leaves the
// removal under way.
func (r *Registry) Unregister(ctx context.Context, key string) error {
	if r.unusable() {
		return errNoRegistry
	}
	if ctx == nil {
		return ErrNilContext
	}
	if err := validateKey(key); err != nil {
		return err
	}
	if r.closed.Load() {
		return ErrShutdown
	}
	if ctx.Err() != nil {
		return contextError(ctx)
	}
	reply := make(chan error, 1)
	r.sys.Root.Send(r.sup, &supervisor.Unregister{Key: key, Reply: reply})
	return r.await(ctx, reply)
}

// await waits for the supervisor's answer, for ctx (at most askTimeout if
// it has no deadline) or for Shutdown.
func (r *Registry) await(ctx context.Context, reply chan error) error {
	var timeout <-chan time.Time
	if _, ok := ctx.Deadline(); !ok {
		t := time.NewTimer(askTimeout)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case err := <-reply:
		return err
	case <-ctx.Done():
		return contextError(ctx)
	case <-timeout:
		return fmt.Errorf("%w: the registry's supervisor did not answer in %v", ErrTimeout, askTimeout)
	case <-r.stopping:
		select {
		case err := <-reply:
			return err
		default:
			return ErrShutdown
		}
	}
}
