package tripwire

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/tripwire-go/tripwire/registry"
)

// Factory makes the target and settings of a key on its first call; see
// WithFactory. ctx carries the values of the call that started it and ends
// when every call waiting for it has given up or the registry shuts down.
type Factory func(ctx context.Context, key string) (Target, Settings, error)

// WithFactory makes a call to an unknown (valid) key create its breaker with
// f first — exactly once per key, however many callers arrive at the same
// moment. f runs on a goroutine of its own; every caller, the first
// included, waits for it with its own deadline (the earlier of its context's
// and DefaultCallTimeout after the call began: the key's CallTimeout is not
// known yet), its context and Shutdown. Its error (or panic) fails the calls
// that waited for it, and the next call tries again (ErrFactory). When every
// waiting call has given up, f's context ends; a call that comes before f
// has returned waits for it, and runs f again only if it made no key: f
// never runs twice at once for a key. State, Snapshot and the other
// non-call methods never create a key.
func WithFactory(f Factory) Option {
	return optionFunc(func(o *options) error {
		if f == nil {
			return fmt.Errorf("%w: WithFactory(nil)", ErrInvalidOption)
		}
		o.factory = f
		return nil
	})
}

// errNoWaiters ends a factory's context once every caller waiting for it
// has given up.
var errNoWaiters = errors.New("tripwire: every call waiting for the factory gave up")

// flights holds the factory runs under way, one per key.
type flights struct {
	mu sync.Mutex
	m  map[string]*flight
	wg sync.WaitGroup
}

// flight is one run of the factory for a key.
type flight struct {
	key     string
	done    chan struct{}
	err     error // set before done is closed
	waiters int   // guarded by flights.mu
	cancel  context.CancelCauseFunc
	// abandoned: every waiter left (guarded by flights.mu); the flight
	// stays in the map until its factory returns, and the next caller
	// starts one that runs after it (after), so that a factory that
	// ignores its context never runs twice at once for a key.
	abandoned bool
	after     *flight
}

// resolve finds key's entry, creating it through the factory if there is
// one. A caller waits for the factory until deadline (zero: no bound but its
// context), its context ends, or the registry shuts down.
func (r *Registry) resolve(ctx context.Context, key string, mk Factory, deadline time.Time) (*registry.Entry, error) {
	e, err := r.lookup(key)
	if err == nil || mk == nil || !errors.Is(err, ErrUnknownKey) {
		return e, err
	}
	if r.full() {
		return nil, fmt.Errorf("%w: %d keys, none that can be forgotten to make %q", ErrTooManyKeys, r.maxKeys, key)
	}
	f, e, err := r.join(ctx, key, mk)
	if f == nil {
		return e, err
	}
	var expired <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		expired = t.C
	}
	select {
	case <-f.done:
	case <-ctx.Done():
		r.leave(f)
		return nil, contextError(ctx)
	case <-expired:
		r.leave(f)
		return nil, fmt.Errorf("%w: waiting for the factory to create %q", ErrTimeout, key)
	case <-r.stopping:
		r.leave(f)
		return nil, ErrShutdown
	}
	if f.err != nil {
		return nil, f.err
	}
	return r.lookup(key)
}

// join returns the flight creating key, starting one if none is under way
// and the key is still unknown, and counts the caller as its waiter. It
// returns the entry instead if the key was created meanwhile. The key is
// looked up again under the flights lock: a flight is removed only after its
// key is registered, so no second flight can start for a key just made (or
// once all its waiters left, see leave).
func (r *Registry) join(ctx context.Context, key string, mk Factory) (*flight, *registry.Entry, error) {
	r.flights.mu.Lock()
	defer r.flights.mu.Unlock()
	if r.closed.Load() {
		return nil, nil, ErrShutdown
	}
	if e, ok := r.keys.Load(key); ok {
		return nil, e, nil
	}
	f, ok := r.flights.m[key]
	if !ok || f.abandoned {
		if r.flights.m == nil {
			r.flights.m = map[string]*flight{}
		}
		var fctx context.Context
		fctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
		f = &flight{key: key, done: make(chan struct{}), cancel: cancel, after: f}
		r.flights.m[key] = f
		r.flights.wg.Add(1)
		go r.fly(fctx, key, mk, f)
	}
	f.waiters++
	return f, nil, nil
}

// fly runs the factory for key and registers what it made, then ends the
// flight.
func (r *Registry) fly(ctx context.Context, key string, mk Factory, f *flight) {
	defer r.flights.wg.Done()
	err := r.buildAfter(ctx, key, mk, f.after)
	r.flights.mu.Lock()
	if r.flights.m[key] == f { // (not if a flight after it took its place: see join)
		delete(r.flights.m, key)
	}
	f.err = err
	r.flights.mu.Unlock()
	f.cancel(context.Canceled)
	close(f.done)
}

// leave uncounts a waiter that gave up; the last one out cancels the
// factory's context, and marks the flight abandoned: a caller that comes
// while the cancelled factory returns starts a flight of its own, instead
// of joining one that fails for reasons not its own, which runs the
// factory once the cancelled one has returned (unless it made the key).
func (r *Registry) leave(f *flight) {
	r.flights.mu.Lock()
	defer r.flights.mu.Unlock()
	if f.waiters--; f.waiters == 0 {
		f.cancel(errNoWaiters)
		f.abandoned = true
	}
}

// buildAfter is build, once the abandoned flight before it (nil: none)
// has ended, if that did not make the key; ctx's end (every waiter left)
// ends the wait.
func (r *Registry) buildAfter(ctx context.Context, key string, mk Factory, before *flight) error {
	if before != nil {
		select {
		case <-before.done:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
		if _, ok := r.keys.Load(key); ok {
			return nil
		}
	}
	return r.build(ctx, key, mk)
}

// build runs the factory for key and registers what it made.
func (r *Registry) build(ctx context.Context, key string, mk Factory) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w for %q panicked: %v", ErrFactory, key, p)
		}
	}()
	t, s, err := mk(ctx, key)
	if err != nil {
		return fmt.Errorf("%w for %q: %w", ErrFactory, key, err)
	}
	err = r.register(key, t, s, true)
	if errors.Is(err, ErrDuplicateKey) {
		// Registered with Register by the program itself while the
		// factory ran: the program's breaker serves the key.
		return nil
	}
	return err
}

// stopFlights cancels the factory runs under way and waits for them until
// ctx ends; their waiters have been released by Shutdown.
func (r *Registry) stopFlights(ctx context.Context) error {
	r.flights.mu.Lock()
	for _, f := range r.flights.m {
		f.cancel(ErrShutdown)
	}
	r.flights.mu.Unlock()
	return waitFor(ctx, r.flights.wg.Wait)
}

// waitFor runs wait on a goroutine of its own and waits for it to return,
// or for ctx to end.
func waitFor(ctx context.Context, wait func()) error {
	done := make(chan struct{})
	go func() { wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// contextError is the error of a call whose context ended: ErrTimeout for
// a deadline (it also matches context.DeadlineExceeded), else ctx.Err().
func contextError(ctx context.Context) error {
	err := ctx.Err()
	if errors.Is(err, context.DeadlineExceeded) {
		return ErrTimeout
	}
	return err
}

// full reports whether a new key would pass WithMaxKeys with no key that
// could be forgotten to make room, so that the factory need not run.
func (r *Registry) full() bool {
	return r.maxKeys > 0 && r.keys.Len() >= r.maxKeys && r.supervisor.Forgettable() == 0
}
