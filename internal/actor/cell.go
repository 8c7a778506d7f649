package actor

import (
	"context"
	"sync/atomic"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/state"
)

// Cell is the part of a key's breaker that outlives its incarnations: the
// state it publishes for lock-free fast-fail, the restart count, and the error
// its pending calls get if it is stopped. Its zero value publishes Closed.
//
// Its fields are grouped by who writes them. What callers touch on every
// call comes first and last, the rest between: a rejection reads
// rejection and flags and adds to rejected; an admission reads admits and
// adds to admitted, away from the state every caller reads.
type Cell struct {
	// Published by the running breaker in its turns, read by callers
	// without a message. flags has other writers, bit by bit:
	// flagPassivated the breaker that passivates and the supervisor (Wake),
	// flagFlood callers (rejectContended) and the breaker (resetCallerCounts),
	// flagWindow and flagQuiet the breaker alone.
	state     atomic.Int32
	flags     atomic.Uint32
	rejection atomic.Pointer[rejecting]

	// Added to by a caller that admits a call (Admit), taken off by
	// whoever lets go of the call last (Call.Release): MaxInFlight is at
	// most math.MaxInt32.
	inflight atomic.Int32

	// Written by the supervisor: the key's passivations (it alone reads
	// them) and its breaker's crash-restarts (anyone reads them).
	Naps     uint32
	restarts atomic.Int32

	// Written by the registry: Made, set for a key the registry's factory
	// made before the key is registered, and never changed; stopErr by
	// Retire, when the key goes away.
	Made    bool
	stopErr atomic.Pointer[error]

	// Written by the key's breakers, in their turns only (a crash hands
	// them to the next incarnation): its number, the restarts they have
	// published as transitions, the key's statistics (nil until it has
	// any: its callers count what they answer themselves, below), and the
	// calls a crashed breaker had in flight, which the breaker that follows
	// takes (adopt), or the supervisor if none follows (settleOrphans).
	incarnation atomic.Uint32
	announced   uint32
	stats       atomic.Pointer[keyStats]
	orphans     atomic.Pointer[[]*Call]

	// Added to by callers, read by the breaker in its turns, which folds
	// them into stats and zeroes them when the key lets its window go: the
	// calls they answered with the circuit's OpenError (until the key is
	// flooded: see Reject), and those they refused for MaxInFlight.
	rejected   atomic.Uint64
	overloaded atomic.Uint64

	// The closed circuit's admission. admits is the running breaker's
	// (its mailbox's turns take it back too: a new one per closed period,
	// so a worker tells a call admitted in an earlier one; nil: callers
	// post their calls to the breaker), and hot, which counts a hot key's
	// successes on its workers (hotlane.go; nil but while a key that has a
	// window is hot). Callers add to admitted as they admit their calls,
	// the breaker's turns to ended as they take their ends: the difference,
	// modulo 2^32, is in flight.
	admits   atomic.Pointer[admission]
	hot      atomic.Pointer[hotLane]
	admitted atomic.Uint32
	ended    uint32
}

// admission is a closed circuit whose callers admit their calls: its
// generation, and (for an actor target) how its asks are sent.
type admission struct {
	gen  state.Gen
	send *task.Sender
}

// admitting publishes whether callers admit calls themselves, in the
// closed circuit of generation g (nil: they do not), sending asks through
// send; only the running breaker and its mailbox's turns call it.
func (c *Cell) admitting(g *state.Gen, send *task.Sender) {
	cur := c.admits.Load()
	switch {
	case g == nil:
		if cur != nil {
			c.admits.Store(nil)
		}
	case cur == nil || cur.gen != *g || cur.send != send:
		c.admits.Store(&admission{gen: *g, send: send})
	}
}

// admittedInFlight is how many of the calls its callers admitted have not
// ended yet, in a breaker's turn.
func (c *Cell) admittedInFlight() int {
	return int(int32(c.admitted.Load() - c.ended - c.hotEnded()))
}

// crashed reports whether the key's breaker crashed since the last call;
// only a breaker starting calls it.
func (c *Cell) crashed() bool {
	n := uint32(c.restarts.Load())
	if n == c.announced {
		return false
	}
	c.announced = n
	return true
}

// State is the circuit state the breaker last published.
func (c *Cell) State() state.State { return state.State(c.state.Load()) }

// Restarts is how many times the key's breaker crashed and came back.
func (c *Cell) Restarts() int { return int(c.restarts.Load()) }

// AddRestart counts one crash-restart; only the supervisor calls it.
func (c *Cell) AddRestart() int64 { return int64(c.restarts.Add(1)) }

// Retire makes every call pending when the breaker next stops fail with err
// instead of ErrBreakerRestarted. Unregister and Shutdown call it first.
func (c *Cell) Retire(err error) { c.stopErr.Store(&err) }

// retired reports whether the key is going away (Retire was called).
func (c *Cell) retired() bool { return c.stopErr.Load() != nil }

// Admit counts a call in flight unless max (> 0) are already; Done uncounts
// it. With max 0 nothing is counted.
func (c *Cell) Admit(max int) bool {
	if max <= 0 {
		return true
	}
	if c.inflight.Add(1) > int32(max) {
		c.inflight.Add(-1)
		return false
	}
	return true
}

// Done ends a call counted by Admit(max).
func (c *Cell) Done(max int) {
	if max > 0 {
		c.inflight.Add(-1)
	}
}

func (c *Cell) publish(s state.State) { c.state.Store(int32(s)) }

func (c *Cell) nextIncarnation() uint64 { return uint64(c.incarnation.Add(1)) }

// Passivated reports whether the breaker stopped itself for being idle; the
// supervisor then leaves the key without a breaker until a call wakes it.
func (c *Cell) Passivated() bool { return c.flags.Load()&flagPassivated != 0 }

// Wake clears Passivated before a new breaker starts.
func (c *Cell) Wake() { c.flags.And(^uint32(flagPassivated)) }

// StopError is what calls pending when the breaker stops are answered with.
func (c *Cell) StopError() error {
	if p := c.stopErr.Load(); p != nil {
		return *p
	}
	return errs.ErrBreakerRestarted
}

// orphan hands the calls in flight of a breaker that crashed to the breaker
// that follows it: their targets are still running, and their answers still
// reach their callers (their outcomes no longer count: they were admitted in
// an earlier incarnation). Nothing is lost by a crash but the counting.
func (c *Cell) orphan(calls []*Call) {
	if len(calls) > 0 {
		c.orphans.Store(&calls)
	}
}

// adopt takes the calls the breaker before this one left in flight.
func (c *Cell) adopt() []*Call {
	if p := c.orphans.Swap(nil); p != nil {
		return *p
	}
	return nil
}

// settleOrphans answers with err the calls a crashed breaker left in flight
// when no breaker follows it (the key was unregistered, or the registry
// shut down meanwhile). Only the supervisor calls it.
func (c *Cell) settleOrphans(err error) {
	for _, call := range c.adopt() {
		call.abandon()
		call.ctx.Cancel(context.Canceled)
		call.Settle(Result{Err: err})
	}
}
