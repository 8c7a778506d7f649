package tripwire

import (
	"context"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/state"
)

// ForceOpen opens key's circuit until Reset or ForceClose: every call gets
// ErrOpen and no probe is let through. It is a transition with reason
// state.ReasonForcedOpen. A crash of the breaker ends it (the breaker
// restarts closed). The control methods wait for the breaker's answer
// until ctx ends (at most 5 s if ctx has no deadline: then ErrTimeout).
func (r *Registry) ForceOpen(ctx context.Context, key string) error {
	return r.control(ctx, key, state.ForceOpen)
}

// ForceClose closes key's circuit until Reset: every call is forwarded, and
// failures are still counted but never open it. Reason
// state.ReasonForcedClosed.
func (r *Registry) ForceClose(ctx context.Context, key string) error {
	return r.control(ctx, key, state.ForceClose)
}

// Reset closes key's circuit, clears its counts and ends a forced mode.
// Reason state.ReasonReset.
func (r *Registry) Reset(ctx context.Context, key string) error {
	return r.control(ctx, key, state.Reset)
}

// ProbeNow half-opens key's open circuit now, without waiting for its
// recovery timer: the next calls are its probes. It is for whoever knows
// the dependency may be back before the timer does (a cluster moved the
// grain elsewhere, an operator). A circuit that is not open, or is forced
// open, is left as it is. Reason state.ReasonProbeNow.
func (r *Registry) ProbeNow(ctx context.Context, key string) error {
	return r.control(ctx, key, state.ProbeNow)
}

func (r *Registry) control(ctx context.Context, key string, ev state.EventKind) error {
	e, err := r.lookupFor(ctx, key)
	if err != nil {
		return err
	}
	_, err = r.tell(ctx, e, func(reply chan tactor.Report) any { return &tactor.Control{Event: ev, Reply: reply} })
	return err
}

// Update gives key's breaker new settings. They apply from the next call;
// the circuit keeps its state and counts (a failure-rate window of another
// shape starts empty). Zero fields take their defaults, as in Register.
// IgnoreTargetDown and IdleTimeout are fixed at Register and not changed.
// It is a transition from the state to itself with reason
// state.ReasonUpdated. It waits for the breaker as ForceOpen does.
func (r *Registry) Update(ctx context.Context, key string, s Settings) error {
	s, err := s.withDefaults()
	if err != nil {
		return err
	}
	e, err := r.lookupFor(ctx, key)
	if err != nil {
		return err
	}
	e.Config.Update(tactor.Rules{
		Circuit: s.circuit(), CallTimeout: s.CallTimeout, Classify: s.classifier(), MaxInFlight: s.MaxInFlight,
		IsFailure: s.IsFailure, Verdicts: s.Classify, // as given, for Snapshot().Settings
	})
	_, err = r.tell(ctx, e, func(reply chan tactor.Report) any { return &tactor.Reconfigure{Reply: reply} })
	return err
}
