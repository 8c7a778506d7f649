package soak

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// caller is one goroutine caller of a run: it calls random keys and tallies
// what it got.
type caller struct {
	h       *harness
	rng     *rand.Rand
	tally   callerTally
	current atomic.Int64 // the id of its call in flight (0: none), for a report of stuck calls
}

// call makes one call and returns the caller's pause before the next.
func (c *caller) call() time.Duration {
	h, rng := c.h, c.rng
	k := rng.IntN(len(h.keys))
	id := callIDs.Add(1)
	ctx, budget, done := callContext(rng)
	c.current.Store(id)
	c.tally.start(h.live)
	begin := time.Now()
	v, err := h.reg.Call(ctx, h.keys[k], id)
	end := time.Now()
	done()
	c.current.Store(0)
	got, _ := v.(int64)
	c.tally.answered(h.live, k, id, err, begin, end, budget, got == id)
	return h.think().After(rng, err)
}

// callContext returns a call's context and how long after now its deadline
// is: the earlier of the context's and CallTimeout. A few calls are
// cancelled by their caller after a few milliseconds.
func callContext(rng *rand.Rand) (ctx context.Context, budget time.Duration, done func()) {
	budget = settings.CallTimeout
	switch r := rng.IntN(100); {
	case r < 2:
		ctx, cancel := context.WithCancel(context.Background())
		t := time.AfterFunc(time.Duration(rng.IntN(5000))*time.Microsecond, cancel)
		return ctx, budget, func() { t.Stop(); cancel() }
	case r < 25:
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		return ctx, 30 * time.Millisecond, cancel
	case r < 45:
		ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
		return ctx, budget, cancel
	}
	return context.Background(), budget, func() {}
}
