package tripwire

import (
	"errors"
	"fmt"
	"time"

	tactor "github.com/tripwire-go/tripwire/actor"
	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/registry"
)

// askTimeout bounds Snapshot and Crash when a breaker cannot answer.
const askTimeout = 5 * time.Second

// Snapshot returns key's breaker state as the breaker itself reports it.
func (r *Registry) Snapshot(key string) (Snapshot, error) {
	e, err := r.lookup(key)
	if err != nil {
		return Snapshot{}, err
	}
	s, err := r.ask(e)
	if err != nil {
		return Snapshot{}, err
	}
	return Snapshot{
		Key: key, State: s.State, Failures: s.Failures,
		OpenedAt: s.OpenedAt, RetryAt: s.RetryAt,
		InFlight: s.InFlight, Restarts: s.Restarts,
	}, nil
}

// Crash makes key's breaker panic, for resilience tests. It returns once a
// fresh breaker serves the key: closed, with zero failures. Calls the
// crashed breaker had in flight get ErrBreakerRestarted.
func (r *Registry) Crash(key string) error {
	e, err := r.lookup(key)
	if err != nil {
		return err
	}
	b, err := r.live(e)
	if err != nil {
		return err
	}
	r.sys.Root.Send(b.PID, &tactor.Crash{})
	_, err = r.ask(e)
	return err
}

// ask sends a SnapshotRequest to the breaker serving e, following the key to
// a new breaker if the one asked stops first.
func (r *Registry) ask(e *registry.Entry) (tactor.Snapshot, error) {
	return r.tell(e, func(reply chan tactor.Snapshot) any { return &tactor.SnapshotRequest{Reply: reply} })
}

// tell sends the message msg builds to the breaker serving e and waits for
// the snapshot it answers with, following the key to a new breaker if the
// one told stops first.
func (r *Registry) tell(e *registry.Entry, msg func(chan tactor.Snapshot) any) (tactor.Snapshot, error) {
	timeout := time.NewTimer(askTimeout)
	defer timeout.Stop()
	for {
		b, err := r.live(e)
		if err != nil {
			return tactor.Snapshot{}, err
		}
		reply := make(chan tactor.Snapshot, 1)
		r.sys.Root.Send(b.PID, msg(reply))
		select {
		case s := <-reply:
			return s, nil
		case <-b.Done():
			if e.Binding() == b && !errors.Is(b.Err(), errs.ErrPassivated) {
				return tactor.Snapshot{}, b.Err()
			}
		case <-r.stopping:
			return tactor.Snapshot{}, ErrShutdown
		case <-timeout.C:
			return tactor.Snapshot{}, fmt.Errorf("%w: breaker %q did not answer in %v", ErrTimeout, e.Key, askTimeout)
		}
	}
}

// Workers is the number of worker goroutines running function targets, busy
// or idle. A worker is started only when no idle one is waiting for a job, so
// the count follows the peak of concurrent calls to function targets (counting
// calls a target kept running past their deadline); idle workers exit after
// 10 seconds.
func (r *Registry) Workers() int { return r.pool.Live() }
