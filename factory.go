package tripwire

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/tripwire-go/tripwire/internal/registry"
)

// Factory makes the target and settings of a key on its first call; see
// WithFactory. ctx carries the values of the call that started it and ends
// when every call waiting for it has given up or the registry shuts down.
type Factory func(ctx context.Context, key string) (Target, Settings, error)

// WithFactory makes a call to an unknown (valid) key create its breaker with
// f first — exactly once per key, however many callers arrive at the same
// moment. f runs on a goroutine of its own; every caller, the first
// included, waits for it with its own deadline (the earlier of its context's
// and state.DefaultCallTimeout after the call began: the key's CallTimeout is not
// known yet), its context and Shutdown. Its error, panic or runtime.Goexit
// fails the calls that waited for it, and the next call tries again
// (ErrFactory). A key forgotten (WithMaxKeys) before a call that waited for
// it could use it is made again for that call. When every
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

// flight is one run of the factory for a key, as x/sync/singleflight's call
// is: its fields are grouped by who writes them.
type flight struct {
	key  string
	done chan struct{}

	// Written by its goroutine (fly) before done is closed, read by its
	// waiters after: what the factory made (nil: it failed, or the key was
	// registered otherwise meanwhile), or why not.
	entry *registry.Entry
	err   error

	// Guarded by flights.mu.
	waiters int
	vals    context.Context // the values the factory runs with: its latest first waiter's
	// started: the factory runs (the flight before it, if any, has
	// ended); cancel then ends its context.
	started bool
	cancel  context.CancelCauseFunc
	// abandoned: every waiter left. The flight stays in the map while its
	// factory runs, so that the next caller starts a flight after it
	// (after), which runs the factory only once this one has returned: a
	// factory that ignores its context never runs twice at once for a
	// key. A flight abandoned before its factory started is taken up
	// again by the next caller instead.
	abandoned bool
	after     *flight
}

// testHookResolved, if set, runs when a caller's factory flight has
// landed, before the caller uses what it made (tests).
var testHookResolved func(key string)

// resolve finds key's entry, creating it through the factory if there is
// one. A caller waits for the factory until deadline (zero: no bound but its
// context), its context ends, or the registry shuts down. A key forgotten
// (WithMaxKeys) between its making and its caller's use is made again.
func (r *Registry) resolve(ctx context.Context, key string, mk Factory, deadline time.Time) (*registry.Entry, error) {
	e, err := r.lookup(key)
	if err == nil || mk == nil || !errors.Is(err, ErrUnknownKey) {
		return e, err
	}
	var expired <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		expired = t.C
	}
	for {
		if r.full() {
			return nil, fmt.Errorf("%w: %d keys, none that can be forgotten to make %q", ErrTooManyKeys, r.maxKeys, key)
		}
		f, e, err := r.join(ctx, key, mk)
		if f == nil {
			return e, err
		}
		if err := r.landed(ctx, f, expired); err != nil {
			return nil, err
		}
		if testHookResolved != nil {
			testHookResolved(key)
		}
		if f.err != nil || f.entry != nil {
			// A made entry forgotten meanwhile refuses the call, which
			// then makes the key again (remade).
			return f.entry, f.err
		}
		if e, err = r.lookup(key); err == nil || !errors.Is(err, ErrUnknownKey) {
			return e, err
		}
		// Registered otherwise while the factory ran, and forgotten since:
		// made again.
	}
}

// landed waits for f to land; it leaves f and returns why if ctx ends
// first, expired fires, or the registry shuts down.
func (r *Registry) landed(ctx context.Context, f *flight, expired <-chan time.Time) error {
	select {
	case <-f.done:
		return nil
	case <-ctx.Done():
		r.leave(f)
		return contextError(ctx)
	case <-expired:
		r.leave(f)
		return fmt.Errorf("%w: waiting for the factory to create %q", ErrTimeout, f.key)
	case <-r.stopping:
		r.leave(f)
		return ErrShutdown
	}
}

// join returns the flight creating key, starting one if none is under way,
// and counts the caller its waiter; or the key's entry if it was created
// meanwhile (looked up under the flights lock: a flight leaves the map once
// its key is registered, or it will not run the factory).
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
	switch {
	case ok && !f.abandoned:
	case ok && !f.started:
		f.abandoned, f.vals = false, ctx // still waiting for the one before it: taken up again
	default:
		if r.flights.m == nil {
			r.flights.m = map[string]*flight{}
		}
		f = &flight{key: key, done: make(chan struct{}), vals: ctx, after: f}
		r.flights.m[key] = f
		r.flights.wg.Add(1)
		go r.fly(key, mk, f)
	}
	f.waiters++
	return f, nil, nil
}

// errGoexit is what a factory that called runtime.Goexit (a t.FailNow in
// a test's factory does) fails its waiters with, as a panic does.
var errGoexit = errors.New("called runtime.Goexit")

// fly runs the factory for key once the flight before it, if any, has
// ended, and registers what it made; then it lands the flight. A factory
// that panics or calls runtime.Goexit fails it with ErrFactory.
func (r *Registry) fly(key string, mk Factory, f *flight) {
	defer r.flights.wg.Done()
	var (
		e        *registry.Entry
		err      error
		returned bool
	)
	defer func() {
		if !returned {
			err = fmt.Errorf("%w for %q: %w", ErrFactory, key, errGoexit)
		}
		r.land(f, e, err)
	}()
	if f.after != nil {
		<-f.after.done // never two runs at once, whatever their contexts
	}
	ctx, e, err := r.takeOff(key, f)
	if ctx != nil {
		e, err = r.build(ctx, key, mk)
	}
	returned = true
}

// takeOff decides whether f runs the factory now; if so it returns the
// factory's context. Else f leaves the map at once with the key's entry or
// why there is none: the registry shut down, or every waiter left before
// the factory started (a later caller then starts a flight of its own).
func (r *Registry) takeOff(key string, f *flight) (context.Context, *registry.Entry, error) {
	r.flights.mu.Lock()
	defer r.flights.mu.Unlock()
	e, registered := r.keys.Load(key)
	var err error
	switch {
	case r.closed.Load():
		e, err = nil, ErrShutdown
	case registered:
	case f.waiters == 0:
		err = errNoWaiters
	default:
		ctx, cancel := context.WithCancelCause(context.WithoutCancel(f.vals))
		f.started, f.cancel, f.vals = true, cancel, nil
		return ctx, nil, nil
	}
	if r.flights.m[key] == f {
		delete(r.flights.m, key)
	}
	return nil, e, err
}

// land ends f with what its factory made, or why not.
func (r *Registry) land(f *flight, e *registry.Entry, err error) {
	r.flights.mu.Lock()
	if r.flights.m[f.key] == f { // (not if a flight after it took its place: see join)
		delete(r.flights.m, f.key)
	}
	f.entry, f.err = e, err
	cancel := f.cancel
	r.flights.mu.Unlock()
	if cancel != nil {
		cancel(context.Canceled)
	}
	close(f.done)
}

// leave uncounts a waiter that gave up; the last one out marks the flight
// abandoned and ends the factory's context: a caller that comes then starts
// a flight of its own, which runs the factory once this one has returned.
func (r *Registry) leave(f *flight) {
	r.flights.mu.Lock()
	defer r.flights.mu.Unlock()
	if f.waiters--; f.waiters == 0 {
		f.abandoned = true
		if f.cancel != nil {
			f.cancel(errNoWaiters)
		}
	}
}

// build runs the factory for key and registers what it made, which it
// returns (nil if the program registered the key itself meanwhile).
func (r *Registry) build(ctx context.Context, key string, mk Factory) (e *registry.Entry, err error) {
	defer func() {
		if p := recover(); p != nil {
			e, err = nil, fmt.Errorf("%w for %q panicked: %v", ErrFactory, key, p)
		}
	}()
	t, s, err := mk(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("%w for %q: %w", ErrFactory, key, err)
	}
	// (Registered whatever became of ctx: a factory that made a key made it.)
	e, err = r.register(context.Background(), key, t, s, byFactory)
	if errors.Is(err, ErrDuplicateKey) {
		// Registered with Register by the program itself while the
		// factory ran: the program's breaker serves the key.
		return nil, nil
	}
	return e, err
}

// stopFlights cancels the factory runs under way and waits for them until
// ctx ends; their waiters have been released by Shutdown.
func (r *Registry) stopFlights(ctx context.Context) error {
	r.flights.mu.Lock()
	for _, f := range r.flights.m {
		if f.cancel != nil { // (one not started yet sees the shutdown when it would start)
			f.cancel(ErrShutdown)
		}
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
