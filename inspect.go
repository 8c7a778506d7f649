package tripwire

import (
	"context"
	"fmt"
	"time"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/registry"
)

// askTimeout bounds the inspection and control methods when a breaker does
// not answer and ctx has no deadline (ErrTimeout): a turn never blocks, so
// only a process starved of CPU for seconds gets there.
const askTimeout = 5 * time.Second

// Snapshot returns key's breaker state as the breaker itself reports it. It
// waits for the breaker's answer until ctx ends (at most 5 s if ctx has no
// deadline: then ErrTimeout).
func (r *Registry) Snapshot(ctx context.Context, key string) (Snapshot, error) {
	e, err := r.lookupFor(ctx, key)
	if err != nil {
		return Snapshot{}, err
	}
	s, err := r.ask(ctx, e)
	if err != nil {
		return Snapshot{}, err
	}
	return snapshotOf(s, time.Now()), nil
}

// crash makes key's breaker panic, for resilience tests
// (tripwiretest.Crash). It returns once a fresh breaker serves the key:
// closed, with zero failures. The calls the crashed breaker had in flight
// carry over to it: they get their targets' answers, which no longer count.
func (r *Registry) crash(ctx context.Context, key string) error {
	e, err := r.lookupFor(ctx, key)
	if err != nil {
		return err
	}
	e.Mailbox.PostUserMessage(&tactor.Crash{})
	_, err = r.ask(ctx, e)
	return err
}

// lookupFor is lookup for a method that waits with ctx.
func (r *Registry) lookupFor(ctx context.Context, key string) (*registry.Entry, error) {
	if r.unusable() {
		return nil, errNoRegistry
	}
	if ctx == nil {
		return nil, ErrNilContext
	}
	if ctx.Err() != nil {
		return nil, contextError(ctx)
	}
	return r.lookup(key)
}

// ask reads the state of the breaker serving e.
func (r *Registry) ask(ctx context.Context, e *registry.Entry) (tactor.Snapshot, error) {
	return r.tell(ctx, e, func(reply chan tactor.Report) any { return &tactor.SnapshotRequest{Reply: reply} })
}

// tell posts the request msg builds to e's mailbox — waking the key if it
// passivated — and waits for the breaker's report, until ctx ends (at most
// askTimeout if it has no deadline).
func (r *Registry) tell(ctx context.Context, e *registry.Entry, msg func(chan tactor.Report) any) (tactor.Snapshot, error) {
	reply := make(chan tactor.Report, 1)
	e.Mailbox.PostUserMessage(msg(reply))
	var timeout <-chan time.Time
	if _, ok := ctx.Deadline(); !ok {
		t := time.NewTimer(askTimeout)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case rep := <-reply:
		return reported(e, rep)
	case <-r.stopping:
		// The breaker may have answered as Shutdown began (a Subscribe
		// callback shutting down on the transition this caused): what it
		// did is the answer.
		select {
		case rep := <-reply:
			return reported(e, rep)
		default:
			return tactor.Snapshot{}, ErrShutdown
		}
	case <-ctx.Done():
		return tactor.Snapshot{}, contextError(ctx)
	case <-timeout:
		return tactor.Snapshot{}, fmt.Errorf("%w: breaker %q did not answer in %v", ErrTimeout, e.Key, askTimeout)
	}
}

// reported is what tell returns for the breaker's report.
func reported(e *registry.Entry, rep tactor.Report) (tactor.Snapshot, error) {
	if rep.Err == errs.ErrForgotten {
		return rep.Snapshot, fmt.Errorf("%w: %q was forgotten to make room (WithMaxKeys)", ErrUnknownKey, e.Key)
	}
	return rep.Snapshot, rep.Err
}

// workers is the number of worker goroutines, busy or idle (read through
// internal/hook): it follows the peak of concurrent function-target calls,
// and a worker idle for 10 to 15 seconds exits.
func (r *Registry) workers() int {
	if r.unusable() {
		return 0
	}
	return r.pool.Live()
}
