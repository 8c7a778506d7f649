package tripwire

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/state"
)

// Settings are the rules of one key's breaker. The zero value is valid and
// means the defaults (state.DefaultThreshold ...), which trip on consecutive failures as Tripwire always
// has; a negative or out-of-range field is ErrInvalidSettings.
type Settings struct {
	// Threshold is the number of consecutive failures that opens the
	// circuit (default 5). Not used with a Window.
	Threshold int
	// OpenTimeout is how long the circuit stays open before it admits a
	// probe (default 30s; see Backoff).
	OpenTimeout time.Duration
	// CallTimeout bounds every call; the effective deadline is the earlier
	// of the context's and now+CallTimeout (default 5s).
	CallTimeout time.Duration
	// IsFailure, if set, decides whether a call's result counts as a
	// failure. By default every non-nil error does, including an error
	// value replied by an actor target. It runs off the breaker's turn — on
	// the worker, or for an actor target on the waiting caller's goroutine —
	// and if it panics the call counts as a failure.
	IsFailure func(value any, err error) bool `json:"-"`
	// Classify is the fuller form of IsFailure: Success, Failure, or Ignore
	// (counts neither way; an ignored probe frees its permit). Set at most
	// one of the two.
	Classify func(value any, err error) state.Verdict `json:"-"`
	// Window, if set, trips on a failure rate over recent calls instead of
	// on Threshold consecutive failures.
	Window state.Window
	// SlowCall, if positive, counts a successful call that took longer as a
	// failure (default 0: off).
	SlowCall time.Duration
	// Backoff stretches the open time of each re-open without a close in
	// between (default: fixed OpenTimeout).
	Backoff state.Backoff
	// HalfOpenProbes is how many probes a half-open circuit admits at once
	// (default 1); all must succeed to close it, any failure re-opens it.
	HalfOpenProbes int
	// MaxInFlight bounds the calls in flight on the key (default 0: no
	// bound), at most math.MaxInt32 (2,147,483,647); a call beyond it gets
	// ErrOverloaded at once and is not queued.
	MaxInFlight int
	// IgnoreTargetDown turns off watching an actor target: by default the
	// breaker opens at once (reason "target_down") when the target
	// terminates, and its calls in flight fail with ErrTargetDown.
	IgnoreTargetDown bool
	// IdleTimeout, if positive, stops a closed breaker that had no call for
	// that long, freeing its memory; the next call starts it again, closed
	// (default 0: never). An open or forced breaker never stops this way,
	// nor one whose target still runs a call it answered already and holds
	// its MaxInFlight slot (a target that ignores its context).
	IdleTimeout time.Duration
}

// Validate reports, as ErrInvalidSettings, what Register and Update would
// refuse in s: a program can check settings it reads from its
// configuration at start-up, and an adapter those it is given when it is
// made rather than at each key it makes.
func (s Settings) Validate() error {
	err := s.validate()
	if err == nil || errors.Is(err, ErrInvalidSettings) { // the circuit's are already
		return err
	}
	return fmt.Errorf("%w: %v", ErrInvalidSettings, err)
}

// withDefaults validates s and fills in its defaults: the circuit's from
// the state package, the registry's here.
func (s Settings) withDefaults() (Settings, error) {
	if err := s.Validate(); err != nil {
		return s, err
	}
	c := s.circuit().WithDefaults()
	s.Threshold, s.OpenTimeout, s.Window, s.HalfOpenProbes = c.Threshold, c.OpenTimeout, c.Window, c.HalfOpenProbes
	if s.CallTimeout == 0 {
		s.CallTimeout = state.DefaultCallTimeout
	}
	return s, nil
}

// validate checks the registry's own fields, then the circuit's.
func (s Settings) validate() error {
	switch {
	case s.CallTimeout < 0:
		return fmt.Errorf("CallTimeout %v is negative", s.CallTimeout)
	case s.MaxInFlight < 0:
		return fmt.Errorf("MaxInFlight %d is negative", s.MaxInFlight)
	case s.MaxInFlight > math.MaxInt32:
		return fmt.Errorf("MaxInFlight %d is over %d", s.MaxInFlight, math.MaxInt32)
	case s.IdleTimeout < 0:
		return fmt.Errorf("IdleTimeout %v is negative", s.IdleTimeout)
	case s.IsFailure != nil && s.Classify != nil:
		return fmt.Errorf("both IsFailure and Classify are set")
	}
	return s.circuit().Validate()
}

func (s Settings) circuit() state.Settings {
	return state.Settings{
		Threshold: s.Threshold, OpenTimeout: s.OpenTimeout, Window: s.Window,
		SlowCall: s.SlowCall, Backoff: s.Backoff, HalfOpenProbes: s.HalfOpenProbes,
	}
}

func (s Settings) classifier() task.Classifier {
	if s.Classify != nil {
		return task.Classifier(s.Classify)
	}
	return task.FailureIf(s.IsFailure)
}
