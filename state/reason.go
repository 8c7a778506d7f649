package state

// Reasons of a transition: why a circuit changed state (or was told to).
// The root package re-exports each; logs, events, metrics and spans use
// these strings.
const (
	ReasonThreshold      = "threshold"       // closed -> open: consecutive failures reached Threshold
	ReasonFailureRate    = "failure_rate"    // closed -> open: the window's failure rate reached FailureRate
	ReasonProbeFailed    = "probe_failed"    // half_open -> open
	ReasonProbeTimeout   = "probe_timeout"   // half_open -> open
	ReasonOpenTimeout    = "open_timeout"    // open -> half_open: the recovery timer fired
	ReasonProbeSucceeded = "probe_succeeded" // half_open -> closed: every probe succeeded
	ReasonTargetDown     = "target_down"     // -> open: the target is dead
	ReasonForcedOpen     = "forced_open"     // -> open until reset
	ReasonForcedClosed   = "forced_closed"   // -> closed until reset
	ReasonReset          = "reset"           // -> closed, counts cleared
	ReasonUpdated        = "updated"         // unchanged state: the breaker got new settings
	ReasonRestarted      = "restarted"       // -> closed: the breaker crashed and restarted
	ReasonProbeNow       = "probe_now"       // open -> half_open before the timer: told the dependency may be back
)

// Manual reports whether reason is an operator's action (ForceOpen,
// ForceClose, Reset, Update) rather than the breaker's own decision.
func Manual(reason string) bool {
	switch reason {
	case ReasonForcedOpen, ReasonForcedClosed, ReasonReset, ReasonUpdated:
		return true
	}
	return false
}
