package actor

import (
	"context"
	"sync"
	"time"
)

// callCtx is the context a function target runs with: the caller's values,
// the call's deadline, and a Done channel closed when the call is given up —
// its deadline passed, its caller withdrew, or its breaker stopped. It costs
// no timer of its own (the breaker's deadline timer closes it) and makes its
// channel only if the target asks for one.
type callCtx struct {
	parent   context.Context
	deadline time.Time

	mu   sync.Mutex
	done chan struct{}
	err  error
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (x *callCtx) Deadline() (time.Time, bool) { return x.deadline, true }

func (x *callCtx) Done() <-chan struct{} {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.done == nil {
		if x.err != nil {
			return closedChan
		}
		x.done = make(chan struct{})
	}
	return x.done
}

func (x *callCtx) Err() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.err
}

func (x *callCtx) Value(key any) any { return x.parent.Value(key) }

// cancel ends the context with err; later calls do nothing, and so does a
// call without one (an actor target's).
func (x *callCtx) cancel(err error) {
	if x == nil {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.err != nil {
		return
	}
	x.err = err
	if x.done != nil {
		close(x.done)
	}
}
