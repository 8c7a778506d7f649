package demo

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// ErrUnavailable is the built-in dependency's failure.
var ErrUnavailable = errors.New("dependency unavailable")

// dependency is one key's function target: it answers after latency, or
// fails, hangs or slows down as its pattern says.
type dependency struct {
	pattern  Pattern
	win      window
	latency  time.Duration
	slow     time.Duration // latency while a Slow dependency is down
	failRate float64
	calls    atomic.Int64

	mu  sync.Mutex
	rng *rand.Rand
}

func (d *dependency) chance(p float64) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.rng.Float64() < p
}

// call is the function target (tripwire.Func).
func (d *dependency) call(ctx context.Context, msg any) (any, error) {
	n := d.calls.Add(1)
	latency := d.latency
	switch d.pattern {
	case Flaky:
		if d.chance(d.failRate) {
			return nil, ErrUnavailable
		}
	case DownUp:
		if d.win.down(time.Now()) {
			if n%5 == 0 {
				<-ctx.Done() // hung: the breaker times the call out
				return nil, ctx.Err()
			}
			return nil, ErrUnavailable
		}
	case Slow:
		if d.win.down(time.Now()) {
			latency = d.slow
		}
	}
	return wait(ctx, latency, msg)
}

// wait answers msg after d, or the context's error if it ends first.
func wait(ctx context.Context, d time.Duration, msg any) (any, error) {
	if d <= 0 {
		return msg, nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return msg, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
