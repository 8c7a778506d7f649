package tripwire

import (
	"fmt"
	"math"
	"time"

	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/task"
)

// Default settings; a zero field in Settings takes its default.
const (
	DefaultThreshold   = 5
	DefaultOpenTimeout = 30 * time.Second
	DefaultCallTimeout = 5 * time.Second
	// DefaultFailureRate and DefaultBuckets apply to a Window that leaves
	// them zero; its MinCalls defaults to its Size, or to
	// DefaultWindowMinCalls for a time window.
	DefaultFailureRate    = 0.5
	DefaultBuckets        = 10
	DefaultWindowMinCalls = 10
)

// Settings are the rules of one key's breaker. The zero value is valid and
// means the defaults, which trip on consecutive failures as Tripwire always
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
	IsFailure func(value any, err error) bool
	// Classify is the fuller form of IsFailure: Success, Failure, or Ignore
	// (counts neither way; an ignored probe frees its permit). Set at most
	// one of the two.
	Classify func(value any, err error) Outcome
	// Window, if set, trips on a failure rate over recent calls instead of
	// on Threshold consecutive failures.
	Window Window
	// SlowCall, if positive, counts a successful call that took longer as a
	// failure (default 0: off).
	SlowCall time.Duration
	// Backoff stretches the open time of each re-open without a close in
	// between (default: fixed OpenTimeout).
	Backoff Backoff
	// HalfOpenProbes is how many probes a half-open circuit admits at once
	// (default 1); all must succeed to close it, any failure re-opens it.
	HalfOpenProbes int
	// MaxInFlight bounds the calls in flight on the key (default 0: no
	// bound); a call beyond it gets ErrOverloaded at once and is not queued.
	MaxInFlight int
	// IgnoreTargetDown turns off watching an actor target: by default the
	// breaker opens at once (reason "target_down") when the target
	// terminates, and its calls in flight fail with ErrTargetDown.
	IgnoreTargetDown bool
	// IdleTimeout, if positive, stops a closed breaker that had no call for
	// that long, freeing its memory; the next call starts it again, closed
	// (default 0: never). An open or forced breaker never stops this way.
	IdleTimeout time.Duration
}

// Window is a failure-rate trip policy: over the last Size calls (a count
// window, Size <= 1024), or the calls of the last Period in Buckets
// (a time window, Buckets <= 60, default 10), the circuit opens once at least
// MinCalls were recorded and the share of failures reaches FailureRate
// (default 0.5). Set Size or Period, not both.
type Window = state.Window

// Backoff multiplies the open time by Multiplier (0 or >= 1) for each
// re-open since the last close, caps it at Max (0: no cap), and spreads it
// by ±Jitter (0..1) of itself, never beyond Max. A close resets it.
type Backoff = state.Backoff

// Outcome is how a call's result counts, as Settings.Classify says.
type Outcome = task.Verdict

// The outcomes a Classify func returns.
const (
	Success = task.Success
	Failure = task.Failure
	Ignore  = task.Ignore
)

func (s Settings) withDefaults() (Settings, error) {
	if err := s.validate(); err != nil {
		return s, fmt.Errorf("%w: %v", ErrInvalidSettings, err)
	}
	if s.Threshold == 0 {
		s.Threshold = DefaultThreshold
	}
	if s.OpenTimeout == 0 {
		s.OpenTimeout = DefaultOpenTimeout
	}
	if s.CallTimeout == 0 {
		s.CallTimeout = DefaultCallTimeout
	}
	if s.HalfOpenProbes == 0 {
		s.HalfOpenProbes = 1
	}
	w := &s.Window
	if w.Size > 0 || w.Period > 0 {
		if w.FailureRate == 0 {
			w.FailureRate = DefaultFailureRate
		}
		if w.Period > 0 && w.Buckets == 0 {
			w.Buckets = DefaultBuckets
		}
		if w.MinCalls == 0 {
			w.MinCalls = DefaultWindowMinCalls
			if w.Size > 0 {
				w.MinCalls = w.Size
			}
		}
	}
	return s, nil
}

func (s Settings) validate() error {
	switch {
	case s.Threshold < 0:
		return fmt.Errorf("Threshold %d is negative", s.Threshold)
	case s.OpenTimeout < 0:
		return fmt.Errorf("OpenTimeout %v is negative", s.OpenTimeout)
	case s.CallTimeout < 0:
		return fmt.Errorf("CallTimeout %v is negative", s.CallTimeout)
	case s.SlowCall < 0:
		return fmt.Errorf("SlowCall %v is negative", s.SlowCall)
	case s.HalfOpenProbes < 0:
		return fmt.Errorf("HalfOpenProbes %d is negative", s.HalfOpenProbes)
	case s.MaxInFlight < 0:
		return fmt.Errorf("MaxInFlight %d is negative", s.MaxInFlight)
	case s.IdleTimeout < 0:
		return fmt.Errorf("IdleTimeout %v is negative", s.IdleTimeout)
	case s.IsFailure != nil && s.Classify != nil:
		return fmt.Errorf("both IsFailure and Classify are set")
	}
	if err := validateWindow(s.Window); err != nil {
		return err
	}
	return validateBackoff(s.Backoff)
}

func validateWindow(w Window) error {
	switch {
	case w.Size < 0 || w.Size > state.MaxWindowSize:
		return fmt.Errorf("Window.Size %d is outside 0..%d", w.Size, state.MaxWindowSize)
	case w.Period < 0:
		return fmt.Errorf("Window.Period %v is negative", w.Period)
	case w.Size > 0 && w.Period > 0:
		return fmt.Errorf("Window has both a Size and a Period")
	case w.Buckets < 0 || w.Buckets > state.MaxWindowBuckets:
		return fmt.Errorf("Window.Buckets %d is outside 0..%d", w.Buckets, state.MaxWindowBuckets)
	case w.MinCalls < 0:
		return fmt.Errorf("Window.MinCalls %d is negative", w.MinCalls)
	case w.Size > 0 && w.MinCalls > w.Size:
		return fmt.Errorf("Window.MinCalls %d is over its Size %d: it could never trip", w.MinCalls, w.Size)
	case w.Period > 0 && int64(w.MinCalls) > state.MaxBucketCalls*int64(bucketsOf(w)):
		return fmt.Errorf("Window.MinCalls %d is over what its buckets can count (%d each): it could never trip",
			w.MinCalls, state.MaxBucketCalls)
	case math.IsNaN(w.FailureRate) || w.FailureRate < 0 || w.FailureRate > 1:
		return fmt.Errorf("Window.FailureRate %v is outside 0..1", w.FailureRate)
	case w.Size == 0 && w.Period == 0 && (w.Buckets != 0 || w.MinCalls != 0 || w.FailureRate != 0):
		return fmt.Errorf("Window has no Size or Period")
	case w.Period > 0 && w.Buckets > 0 && w.Period < time.Duration(w.Buckets):
		return fmt.Errorf("Window.Period %v is shorter than its %d buckets", w.Period, w.Buckets)
	}
	return nil
}

// bucketsOf is the number of buckets of a time window, with its default.
func bucketsOf(w Window) int {
	if w.Buckets == 0 {
		return DefaultBuckets
	}
	return w.Buckets
}

func validateBackoff(b Backoff) error {
	switch {
	case math.IsNaN(b.Multiplier) || math.IsInf(b.Multiplier, 0) || b.Multiplier < 0 || (b.Multiplier > 0 && b.Multiplier < 1):
		return fmt.Errorf("Backoff.Multiplier %v is not 0 or >= 1", b.Multiplier)
	case b.Max < 0:
		return fmt.Errorf("Backoff.Max %v is negative", b.Max)
	case math.IsNaN(b.Jitter) || b.Jitter < 0 || b.Jitter > 1:
		return fmt.Errorf("Backoff.Jitter %v is outside 0..1", b.Jitter)
	}
	return nil
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
