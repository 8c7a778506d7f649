package actor

import (
	"context"
	"sync/atomic"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/state"
)

// Cell is the part of a key's breaker that outlives its incarnations: what
// callers read to fail fast, the restarts, the error pending calls get if it
// stops. Its zero value publishes Closed. Its fields are grouped by writer,
// what every call touches first (rejection) and last (admission).
type Cell struct {
	// Published by the running breaker, read by callers without a message.
	// flags has other writers: flagPassivated the supervisor too (Wake),
	// flagFlood callers too (rejectContended).
	state     atomic.Int32
	flags     atomic.Uint32
	rejection atomic.Pointer[rejecting]

	// Added to by callers (Admit), taken off by whoever lets go of a call
	// last (Call.Release); MaxInFlight is at most math.MaxInt32.
	inflight atomic.Int32

	// Written by the supervisor: passivations (its alone) and restarts.
	Naps     uint32
	restarts atomic.Int32

	// Written by the registry: Made (by its factory) before the key is
	// registered, stopErr by Retire.
	Made    bool
	stopErr atomic.Pointer[error]

	// Written by the key's breakers in their turns: its incarnation, the
	// restarts announced, the statistics (nil until any), and the calls a
	// crashed breaker had in flight (adopt, or settleOrphans if none follows).
	incarnation atomic.Uint32
	announced   uint32
	stats       atomic.Pointer[keyStats]
	orphans     atomic.Pointer[[]*Call]

	// Added to by callers, folded into stats by the breaker: the calls they
	// rejected (until the key is flooded: Reject) and refused for MaxInFlight.
	rejected   atomic.Uint64
	overloaded atomic.Uint64

	// The closed circuit's admission (one per closed period; nil: callers
	// post their calls) and a hot key's lane, published by the running
	// breaker; callers add to admitted, its turns to ended: the difference,
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

// admitting publishes whether callers admit calls themselves, in the closed
// circuit of generation g (nil: no), sending asks through send.
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

// Retire makes the calls pending when the breaker next stops fail with err,
// not ErrBreakerRestarted (Unregister, Shutdown).
func (c *Cell) Retire(err error) { c.stopErr.Store(&err) }

// retired reports whether the key is going away (Retire was called).
func (c *Cell) retired() bool { return c.stopErr.Load() != nil }

// Admit counts a call in flight unless max (> 0, else nothing is counted)
// are already.
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

// Passivated reports whether the breaker stopped itself for being idle.
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

// orphan hands the calls in flight of a crashed breaker to the next, whose
// answers still reach their callers, counting nowhere.
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
// when no breaker follows it (the key went away meanwhile); the supervisor's.
func (c *Cell) settleOrphans(err error) {
	for _, call := range c.adopt() {
		call.abandon(context.Canceled)
		call.Settle(Result{Err: err})
	}
}
