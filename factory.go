package tripwire

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/tripwire-go/tripwire/registry"
)

// Factory makes the target and settings of a key on its first call; see
// WithFactory.
type Factory func(key string) (Target, Settings, error)

// WithFactory makes a call to an unknown (valid) key create its breaker with
// f first — exactly once, however many callers arrive at the same moment;
// they all wait for it. f runs on the first caller's goroutine. Its error
// (or panic) fails the calls that waited for it, and the next call tries
// again. State, Snapshot and the other non-call methods never create a key.
func WithFactory(f Factory) Option {
	return optionFunc(func(o *options) error {
		if f == nil {
			return fmt.Errorf("%w: WithFactory(nil)", ErrInvalidOption)
		}
		o.factory = f
		return nil
	})
}

// flights holds the factory runs under way, one per key.
type flights struct {
	mu sync.Mutex
	m  map[string]*flight
}

type flight struct {
	done chan struct{}
	err  error
}

// resolve finds key's entry, creating it through the factory if there is one.
func (r *Registry) resolve(ctx context.Context, key string) (*registry.Entry, error) {
	e, err := r.lookup(key)
	if err == nil || r.factory == nil || !errors.Is(err, ErrUnknownKey) {
		return e, err
	}
	r.flights.mu.Lock()
	f, waiting := r.flights.m[key]
	if !waiting {
		if r.flights.m == nil {
			r.flights.m = map[string]*flight{}
		}
		f = &flight{done: make(chan struct{})}
		r.flights.m[key] = f
	}
	r.flights.mu.Unlock()
	if !waiting {
		f.err = r.build(key)
		r.flights.mu.Lock()
		delete(r.flights.m, key)
		r.flights.mu.Unlock()
		close(f.done)
	}
	select {
	case <-f.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if f.err != nil {
		return nil, f.err
	}
	return r.lookup(key)
}

// build runs the factory for key and registers what it made.
func (r *Registry) build(key string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("tripwire: factory for %q panicked: %v", key, p)
		}
	}()
	t, s, err := r.factory(key)
	if err != nil {
		return fmt.Errorf("tripwire: factory for %q: %w", key, err)
	}
	err = r.Register(key, t, s)
	if errors.Is(err, ErrDuplicateKey) {
		return nil // registered by someone else meanwhile: use theirs
	}
	return err
}
