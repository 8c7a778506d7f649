package tripwire

import (
	"context"

	"github.com/tripwire-go/tripwire/registry"
)

// Shutdown stops every breaker, worker and timer of the registry. Calls in
// flight get ErrShutdown, and so does every later call. If Start created the
// actor system, Shutdown stops it too. A second Shutdown does nothing. It
// returns ctx.Err() if ctx ends before a worker stuck in a target that
// ignores its context has returned.
func (r *Registry) Shutdown(ctx context.Context) error {
	if ctx == nil {
		return ErrNilContext
	}
	first := false
	r.once.Do(func() { first = true })
	if !first {
		return nil
	}
	r.life.Lock()
	r.closed.Store(true)
	close(r.stopping)
	r.life.Unlock()

	stopped := make(chan error, 1)
	go func() { stopped <- r.sys.Root.PoisonFuture(r.sup).Wait() }()
	var err error
	select {
	case err = <-stopped:
	case <-ctx.Done():
		err = ctx.Err()
	}
	r.keys.Range(func(e *registry.Entry) bool {
		if b := e.Binding(); b != nil {
			b.Close(ErrShutdown)
		}
		return true
	})
	r.keys.Clear()
	if herr := r.hub.Close(ctx); err == nil {
		err = herr
	}
	if perr := r.pool.Close(ctx); err == nil {
		err = perr
	}
	if werr := r.waitRequests(ctx); err == nil {
		err = werr
	}
	if r.ownSys {
		r.sys.Shutdown()
	}
	return err
}

func (r *Registry) waitRequests(ctx context.Context) error {
	done := make(chan struct{})
	go func() { r.requests.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
