package main

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

var errUnavailable = errors.New("dependency unavailable")

// flaky is the demo's dependency: healthy, then down (failing fast or hanging
// past the call timeout), then healthy again.
type flaky struct {
	start    time.Time
	downAt   time.Duration
	upAt     time.Duration
	latency  time.Duration
	calls    atomic.Int64
	hangEach int64 // while down, every hangEach-th call hangs instead of failing
}

func (f *flaky) down(now time.Time) bool {
	t := now.Sub(f.start)
	return t >= f.downAt && t < f.upAt
}

// call is the FuncTarget.
func (f *flaky) call(ctx context.Context, msg any) (any, error) {
	n := f.calls.Add(1)
	if f.down(time.Now()) {
		if f.hangEach > 0 && n%f.hangEach == 0 {
			<-ctx.Done() // a hung dependency: the breaker times the call out
			return nil, ctx.Err()
		}
		return nil, errUnavailable
	}
	select {
	case <-time.After(f.latency):
		return msg, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
