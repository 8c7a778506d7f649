package actor

import "github.com/tripwire-go/tripwire/state"

// reasonCode is a transition's reason in a byte: a breaker keeps the reason
// of its last transition, and a million breakers would pay 16 bytes each
// for the string.
type reasonCode uint8

// reasons are the reasons by code; 0 is none ("").
var reasons = [...]string{
	"",
	state.ReasonThreshold, state.ReasonFailureRate, state.ReasonProbeFailed, state.ReasonProbeTimeout,
	state.ReasonOpenTimeout, state.ReasonProbeSucceeded, state.ReasonTargetDown, state.ReasonForcedOpen,
	state.ReasonForcedClosed, state.ReasonReset, state.ReasonUpdated, state.ReasonRestarted, state.ReasonProbeNow,
}

// codeOf is the code of reason r (0 for one it does not know).
func codeOf(r string) reasonCode {
	for i, s := range reasons {
		if s == r {
			return reasonCode(i)
		}
	}
	return 0
}

func (c reasonCode) String() string { return reasons[c] }
