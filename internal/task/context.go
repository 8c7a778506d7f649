package task

import (
	"context"
	"sync/atomic"
	"time"
)

// Context is the context a function target runs with: the caller's values,
// the call's deadline, and a Done channel closed when the call is given up
// or answered (Cancel). It costs no timer, makes its channel only if asked,
// takes no lock, and serves one call alone (a target may keep it after).
type Context struct {
	parent   context.Context
	deadline time.Time

	end  atomic.Uint32                 // how it ended: ctxLive, or its error's code
	done atomic.Pointer[chan struct{}] // set once: by Done, or by Cancel to closedChan
}

// How a Context ended (its end).
const (
	ctxLive uint32 = iota
	ctxCanceled
	ctxDeadline
)

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (x *Context) Deadline() (time.Time, bool) { return x.deadline, true }

var closedDone = &closedChan

func (x *Context) Done() <-chan struct{} {
	if d := x.done.Load(); d != nil {
		return *d
	}
	d := make(chan struct{})
	if x.done.CompareAndSwap(nil, &d) {
		return d // Cancel, ending the context after this, closes it
	}
	return *x.done.Load() // made by another Done, or closedChan by Cancel
}

func (x *Context) Err() error {
	switch x.end.Load() {
	case ctxCanceled:
		return context.Canceled
	case ctxDeadline:
		return context.DeadlineExceeded
	}
	return nil
}

func (x *Context) Value(key any) any { return x.parent.Value(key) }

// Start readies x for a call by parent's values until deadline.
func (x *Context) Start(parent context.Context, deadline time.Time) {
	*x = Context{parent: parent, deadline: deadline}
}

// Cancel ends the context with err, context.Canceled or
// context.DeadlineExceeded; later calls do nothing, and so does a call on
// a nil Context (an actor target's call has none). Whichever of Cancel and
// Done sets the channel second sees the other's: Cancel closes the channel
// Done made, or Done returns the closed one Cancel set.
func (x *Context) Cancel(err error) {
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
