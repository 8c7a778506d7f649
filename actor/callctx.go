package actor

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// callCtx is the context a function target runs with: the caller's values,
// the call's deadline, and a Done channel closed when the call is given up —
// its deadline passed, its caller withdrew, or its breaker stopped — or has
// its answer. It costs no timer of its own (the breaker's deadline timer
// closes it), makes its channel only if the target asks for one, and ends
// without a lock unless it has.
type callCtx struct {
	parent   context.Context
	deadline time.Time

	end  atomic.Uint32 // how it ended: ctxLive, or its error's code
	mu   sync.Mutex    // makes done
	done atomic.Pointer[chan struct{}]
}

// How a callCtx ended (its end).
const (
	ctxLive uint32 = iota
	ctxCanceled
	ctxDeadline
)

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (x *callCtx) Deadline() (time.Time, bool) { return x.deadline, true }

func (x *callCtx) Done() <-chan struct{} {
	if d := x.done.Load(); d != nil {
		return *d
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if d := x.done.Load(); d != nil {
		return *d
	}
	if x.end.Load() != ctxLive {
		return closedChan
	}
	d := make(chan struct{})
	x.done.Store(&d)
	return d
}

func (x *callCtx) Err() error {
	switch x.end.Load() {
	case ctxCanceled:
		return context.Canceled
	case ctxDeadline:
		return context.DeadlineExceeded
	}
	return nil
}

func (x *callCtx) Value(key any) any { return x.parent.Value(key) }

// cancel ends the context with err, context.Canceled or
// context.DeadlineExceeded; later calls do nothing, and so does a call
// without one (an actor target's). Whichever of cancel and Done runs second
// sees the other: cancel closes the channel Done made, or Done returns a
// closed one.
func (x *callCtx) cancel(err error) {
	if x == nil {
		return
	}
	code := ctxCanceled
	if err == context.DeadlineExceeded {
		code = ctxDeadline
	}
	if !x.end.CompareAndSwap(ctxLive, code) {
		return
	}
	d := x.done.Load()
	if d == nil {
		x.mu.Lock()
		d = x.done.Load()
		x.mu.Unlock()
	}
	if d != nil {
		close(*d)
	}
}
