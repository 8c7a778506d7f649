package actor

import (
	"sync/atomic"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/state"
)

// Cell is the part of a key's breaker that outlives its incarnations: the
// state it publishes for lock-free fast-fail, the restart count, and the error
// its pending calls get if it is stopped.
type Cell struct {
	state       atomic.Int32
	rejecting   atomic.Bool
	restarts    atomic.Int64
	incarnation atomic.Uint64
	stopErr     atomic.Pointer[error]
}

// NewCell returns a cell publishing Closed.
func NewCell() *Cell { return &Cell{} }

// State is the circuit state the breaker last published.
func (c *Cell) State() state.State { return state.State(c.state.Load()) }

// Restarts is how many times the key's breaker crashed and came back.
func (c *Cell) Restarts() int { return int(c.restarts.Load()) }

// AddRestart counts one crash-restart; only the supervisor calls it.
func (c *Cell) AddRestart() int64 { return c.restarts.Add(1) }

// Retire makes every call pending when the breaker next stops fail with err
// instead of ErrBreakerRestarted. Unregister and Shutdown call it first.
func (c *Cell) Retire(err error) { c.stopErr.Store(&err) }

// Rejecting reports whether the breaker would answer a call ErrOpen now:
// the circuit is open, or half-open with its probe in flight.
func (c *Cell) Rejecting() bool { return c.rejecting.Load() }

func (c *Cell) publish(s state.State) { c.state.Store(int32(s)) }

func (c *Cell) nextIncarnation() uint64 { return c.incarnation.Add(1) }

// StopError is what calls pending when the breaker stops are answered with.
func (c *Cell) StopError() error {
	if p := c.stopErr.Load(); p != nil {
		return *p
	}
	return errs.ErrBreakerRestarted
}
