package state

import "fmt"

// Reason says why a circuit changed state (or was told to). Logs, events,
// metrics and spans name it by String; JSON too (MarshalText). The zero
// Reason is ReasonNone: a breaker that has not changed state yet.
type Reason uint8

// Reasons of a transition.
const (
	ReasonNone           Reason = iota // no transition yet
	ReasonThreshold                    // closed -> open: consecutive failures reached Threshold
	ReasonFailureRate                  // closed -> open: the window's failure rate reached FailureRate
	ReasonProbeFailed                  // half_open -> open
	ReasonProbeTimeout                 // half_open -> open
	ReasonOpenTimeout                  // open -> half_open: the recovery timer fired
	ReasonProbeSucceeded               // half_open -> closed: every probe succeeded
	ReasonTargetDown                   // -> open: the target is dead
	ReasonForcedOpen                   // -> open until reset
	ReasonForcedClosed                 // -> closed until reset
	ReasonReset                        // -> closed, counts cleared
	ReasonUpdated                      // unchanged state: the breaker got new settings
	ReasonRestarted                    // -> closed: the breaker crashed and restarted
	ReasonProbeNow                     // open -> half_open before the timer: told the dependency may be back
	numReasons
)

var reasonNames = [numReasons]string{
	"none", "threshold", "failure_rate", "probe_failed", "probe_timeout", "open_timeout",
	"probe_succeeded", "target_down", "forced_open", "forced_closed", "reset", "updated",
	"restarted", "probe_now",
}

// String returns the reason's name: "threshold", "probe_failed", "none" ...
func (r Reason) String() string {
	return nameOf(r, reasonNames[:], fmt.Sprintf("reason(%d)", uint8(r)))
}

// MarshalText writes r as String does, so JSON shows "threshold", not 1.
func (r Reason) MarshalText() ([]byte, error) { return marshalName("reason", r, reasonNames[:]) }

// UnmarshalText reads what MarshalText writes.
func (r *Reason) UnmarshalText(b []byte) error {
	return unmarshalName("reason", r, b, reasonNames[:])
}

// Manual reports whether r is an operator's action (ForceOpen, ForceClose,
// Reset, Update) rather than the breaker's own decision.
func (r Reason) Manual() bool {
	switch r {
	case ReasonForcedOpen, ReasonForcedClosed, ReasonReset, ReasonUpdated:
		return true
	}
	return false
}
