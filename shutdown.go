package tripwire

import (
	"context"
	"errors"

	"github.com/tripwire-go/tripwire/internal/registry"
	"github.com/tripwire-go/tripwire/internal/supervisor"
)

// Shutdown stops every breaker, worker and timer of the registry. Calls in
// flight get ErrShutdown, and so does every later call. If Start created the
// actor system, Shutdown stops it too. Every Shutdown, the first and any
// made meanwhile or later, returns once the registry is shut down, or with
// ctx.Err() when ctx ends first — as it does while a worker is stuck in a
// target that ignores its context (the shutdown goes on, and completes once
// the target returns).
//
// Shutdown waits for the registry's own goroutines, among them the one that
// runs Subscribe callbacks (and the actor system's EventStream handlers):
// called from one of those, or from a target, with a context that never
// ends, it waits for itself forever.
func (r *Registry) Shutdown(ctx context.Context) error {
	if r.unusable() {
		return errNoRegistry
	}
	if ctx == nil {
		return ErrNilContext
	}
	r.once.Do(func() {
		r.life.Lock()
		r.closed.Store(true)
		close(r.stopping)
		r.life.Unlock()
		go r.teardown()
	})
	select {
	case <-r.down:
		return r.downErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// teardown is the work of Shutdown, done once; closing r.down ends it.
func (r *Registry) teardown() {
	defer close(r.down)
	drained := make(chan error, 1)
	r.sys.Root.Send(r.sup, &supervisor.Shutdown{Reply: drained})
	err := errors.Join(<-drained, r.sys.Root.PoisonFuture(r.sup).Wait())
	r.supervisor.Close()
	r.keys.Range(func(e *registry.Entry) bool {
		e.Config.SettleOrphans(ErrShutdown)
		e.Mailbox.Discard(ErrShutdown)
		return true
	})
	r.keys.Clear()
	r.shared.Idle.Stop()
	ctx := context.Background()
	err = errors.Join(err,
		r.stopFlights(ctx),
		r.hub.Close(ctx),
		r.pool.Close(ctx),
		waitFor(ctx, r.requests.Wait))
	r.caller.Close()
	if r.ownSys {
		r.sys.Shutdown()
	}
	r.downErr = err
}
