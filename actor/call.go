package actor

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/task"
)

// Call is one caller's request, sent by the caller to a breaker. It carries its
// own reply channel; whoever settles it first (breaker, supervisor, or the
// caller withdrawing or giving up) wins, so the caller gets exactly one answer.
type Call struct {
	Ctx      context.Context
	Msg      any
	Deadline time.Time

	reply  chan Result
	status atomic.Int32

	// owned by the breaker that admitted the call
	gen   state.Gen
	index int // position in the deadline heap
	ask   *task.Ask
}

// Result is the answer to a Call.
type Result struct {
	Value any
	Err   error
}

const (
	pending int32 = iota
	settled
	withdrawn
	expired
)

// NewCall returns a call for msg that must be answered by deadline.
func NewCall(ctx context.Context, msg any, deadline time.Time) *Call {
	return &Call{Ctx: ctx, Msg: msg, Deadline: deadline, reply: make(chan Result, 1), index: -1}
}

// Reply is where the answer arrives.
func (c *Call) Reply() <-chan Result { return c.reply }

// Settle answers the call unless it was already answered, withdrawn or
// expired; it reports whether this answer was the one delivered.
func (c *Call) Settle(r Result) bool {
	if !c.status.CompareAndSwap(pending, settled) {
		return false
	}
	c.reply <- r
	return true
}

// Withdraw marks the call as abandoned by a caller whose context was
// cancelled. It fails if an answer was already given.
func (c *Call) Withdraw() bool { return c.status.CompareAndSwap(pending, withdrawn) }

// Expire marks the call as given up by its caller at deadline plus grace,
// or after its breaker vanished. It fails if an answer was already given.
func (c *Call) Expire() bool { return c.status.CompareAndSwap(pending, expired) }

// wasWithdrawn reports whether the caller withdrew the call (it then counts
// neither as success nor failure).
func (c *Call) wasWithdrawn() bool { return c.status.Load() == withdrawn }
