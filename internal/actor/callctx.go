package actor

import (
	"context"
	"sync/atomic"
	"time"
)

// callCtx is the context a function target runs with: the caller's values,
// the call's deadline, and a Done channel closed when the call is given up —
// its deadline passed, its caller withdrew, or its breaker stopped — or has
// its answer. It costs no timer of its own (the breaker's deadline timer
// closes it), makes its channel only if the target asks for one, and takes
// no lock.
type callCtx struct {
	parent   context.Context
	deadline time.Time

	end  atomic.Uint32                 // how it ended: ctxLive, or its error's code
	done atomic.Pointer[chan struct{}] // set once: by Done, or by cancel to closedChan
}

// How a callCtx ended (its end).
const (
	ctxLive uint32 = iota
	ctxCanceled
	ctxDeadline
)

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (x *callCtx) Deadline() (time.Time, bool) { return x.deadline, true }

var closedDone = &closedChan

func (x *callCtx) Done() <-chan struct{} {
	if d := x.done.Load(); d != nil {
		return *d
	}
	d := make(chan struct{})
	if x.done.CompareAndSwap(nil, &d) {
		return d // cancel, ending the context after this, closes it
	}
	return *x.done.Load() // made by another Done, or closedChan by cancel
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
// without one (an actor target's). Whichever of cancel and Done sets the
// channel second sees the other's: cancel closes the channel Done made, or
// Done returns the closed one cancel set.
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
	if !x.done.CompareAndSwap(nil, closedDone) {
		close(*x.done.Load()) // Done's, set before this: only this closes it
	}
}
