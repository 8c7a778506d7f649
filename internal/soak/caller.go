package soak

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/tripwire-go/tripwire"
)

// caller calls random keys until stop, and tallies what it got. current
// holds the id of its call in flight (0: none), for a report of stuck calls.
func (h *harness) caller(i int, stop <-chan struct{}, current *atomic.Int64) callerTally {
	rng := h.rng(7, uint64(i))
	var tally callerTally
	for {
		select {
		case <-stop:
			return tally
		default:
		}
		k := rng.IntN(len(h.keys))
		id := h.nextID.Add(1)
		ctx, budget, done := callContext(rng)
		current.Store(id)
		tally.start(h.live)
		begin := time.Now()
		v, err := h.reg.Call(ctx, h.keys[k], id)
		end := time.Now()
		done()
		current.Store(0)
		got, _ := v.(int64)
		tally.answered(h.live, k, err, begin, end, budget, got == id)
		h.pause(rng, err)
	}
}

// pause is what a caller does between calls: it thinks for a while, and
// after ErrOpen it backs off, like a real client. Callers that call again at
// once would keep the CPUs saturated (an open circuit answers without
// blocking): every goroutine that wakes up (a caller whose deadline passed,
// a breaker, a worker) would then wait behind all of them in the run queue,
// for hundreds of milliseconds on 2 CPUs under -race, and the lateness check
// would measure the Go scheduler rather than Tripwire.
func (h *harness) pause(rng *rand.Rand, err error) {
	d := h.cfg.Think
	if errors.Is(err, tripwire.ErrOpen) {
		d = max(d, backoff)
	}
	if d > 0 {
		time.Sleep(d/2 + time.Duration(rng.Int64N(int64(d))))
	}
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
