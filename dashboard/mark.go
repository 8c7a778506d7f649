package dashboard

import "github.com/tripwire-go/tripwire/state"

// mark is what the dashboard keeps of a key that is not healthy — not
// closed, forced, or failing — whether a page shows it or not: enough to
// rank and count it. Healthy keys have none, so what it keeps grows with
// the keys in trouble, not with the registry.
type mark struct {
	state   state.State
	forced  state.Force
	failing bool
	// since is the time of the last transition known (UnixNano), so a
	// transition delivered late does not undo a newer look at the breaker.
	since int64
	// asked is when its breaker was last asked (UnixNano; 0: never).
	asked int64
	// down is when the circuit last left closed, if the board knows
	// (UnixNano; 0: closed, or not known): see outage.
	down int64
	// last is its last latency with calls in the window, kept for while
	// it is open and its window empty.
	last Latency
}

func (m *mark) severity() Severity { return severityOf(m.state, m.forced, m.failing) }

// healthy reports whether the mark can go.
func (m *mark) healthy() bool { return m.severity() == Healthy }

// forcedBy is the override a transition of reason leaves, given the one
// before it: the forcing reasons set it, a reset or a restart ends it,
// anything else keeps it.
func forcedBy(reason state.Reason, before state.Force) state.Force {
	switch reason {
	case state.ReasonForcedOpen:
		return state.ForcedOpen
	case state.ReasonForcedClosed:
		return state.ForcedClosed
	case state.ReasonReset, state.ReasonRestarted:
		return state.NotForced
	}
	return before
}
