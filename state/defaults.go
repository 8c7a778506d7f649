package state

import (
	"fmt"
	"math"
	"time"
)

// Defaults of a circuit's settings: a zero field of Settings takes its
// default (WithDefaults).
const (
	DefaultThreshold   = 5
	DefaultOpenTimeout = 30 * time.Second
	// DefaultFailureRate and DefaultBuckets apply to a Window that leaves
	// them zero; its MinCalls defaults to its Size, or to
	// DefaultWindowMinCalls for a time window.
	DefaultFailureRate    = 0.5
	DefaultBuckets        = 10
	DefaultWindowMinCalls = 10
	// DefaultHalfOpenProbes is how many probes a half-open circuit admits.
	DefaultHalfOpenProbes = 1
	// DefaultCallTimeout bounds a call whose key's settings leave
	// CallTimeout zero (tripwire.Settings), and a call that waits for a
	// factory to make its key.
	DefaultCallTimeout = 5 * time.Second
)

// Validate returns why s cannot be a circuit's settings — a negative field,
// a value out of range — as an ErrInvalidSettings, or nil. Zero fields are
// valid: they mean the defaults.
func (s Settings) Validate() error {
	if msg := s.problem(); msg != "" {
		return fmt.Errorf("%w: %s", ErrInvalidSettings, msg)
	}
	return nil
}

// problem says what is wrong with s, or "".
func (s Settings) problem() string {
	bad := fmt.Sprintf
	switch {
	case s.Threshold < 0:
		return bad("Threshold %d is negative", s.Threshold)
	case s.OpenTimeout < 0:
		return bad("OpenTimeout %v is negative", s.OpenTimeout)
	case s.SlowCall < 0:
		return bad("SlowCall %v is negative", s.SlowCall)
	case s.HalfOpenProbes < 0:
		return bad("HalfOpenProbes %d is negative", s.HalfOpenProbes)
	}
	if msg := s.Window.problem(); msg != "" {
		return msg
	}
	return s.Backoff.problem()
}

// WithDefaults returns s with every zero field that has a default set to it.
func (s Settings) WithDefaults() Settings {
	if s.Threshold == 0 {
		s.Threshold = DefaultThreshold
	}
	if s.OpenTimeout == 0 {
		s.OpenTimeout = DefaultOpenTimeout
	}
	if s.HalfOpenProbes == 0 {
		s.HalfOpenProbes = DefaultHalfOpenProbes
	}
	w := &s.Window
	if w.Count() || w.Timed() {
		if w.FailureRate == 0 {
			w.FailureRate = DefaultFailureRate
		}
		if w.Timed() && w.Buckets == 0 {
			w.Buckets = DefaultBuckets
		}
		if w.MinCalls == 0 {
			w.MinCalls = DefaultWindowMinCalls
			if w.Count() {
				w.MinCalls = w.Size
			}
		}
	}
	return s
}

// problem says what is wrong with w, or "".
func (w Window) problem() string {
	if p := w.shapeProblem(); p != "" {
		return p
	}
	if p := w.tripProblem(); p != "" {
		return p
	}
	switch {
	case w.Size == 0 && w.Period == 0 && (w.Buckets != 0 || w.MinCalls != 0 || w.FailureRate != 0):
		return "Window has no Size or Period"
	case w.Period > 0 && w.Period < time.Duration(w.buckets()):
		// (a Period of 5, meant as seconds, is 5 ns)
		return fmt.Sprintf("Window.Period %v is shorter than its %d buckets", w.Period, w.buckets())
	}
	return ""
}

// shapeProblem is what is wrong with the window's size, period and
// buckets, if anything.
func (w Window) shapeProblem() string {
	switch {
	case w.Size < 0 || w.Size > MaxWindowSize:
		return fmt.Sprintf("Window.Size %d is outside 0..%d", w.Size, MaxWindowSize)
	case w.Period < 0:
		return fmt.Sprintf("Window.Period %v is negative", w.Period)
	case w.Size > 0 && w.Period > 0:
		return "Window has both a Size and a Period"
	case w.Buckets < 0 || w.Buckets > MaxWindowBuckets:
		return fmt.Sprintf("Window.Buckets %d is outside 0..%d", w.Buckets, MaxWindowBuckets)
	}
	return ""
}

// tripProblem is what is wrong with when the window trips, if anything.
func (w Window) tripProblem() string {
	switch {
	case w.MinCalls < 0:
		return fmt.Sprintf("Window.MinCalls %d is negative", w.MinCalls)
	case w.Size > 0 && w.MinCalls > w.Size:
		return fmt.Sprintf("Window.MinCalls %d is over its Size %d: it could never trip", w.MinCalls, w.Size)
	case w.Period > 0 && int64(w.MinCalls) > MaxBucketCalls*int64(w.buckets()):
		return fmt.Sprintf("Window.MinCalls %d is over what its buckets can count (%d each): it could never trip",
			w.MinCalls, MaxBucketCalls)
	case math.IsNaN(w.FailureRate) || w.FailureRate < 0 || w.FailureRate > 1:
		return fmt.Sprintf("Window.FailureRate %v is outside 0..1", w.FailureRate)
	}
	return ""
}

// buckets is the number of buckets of a time window, with its default.
func (w Window) buckets() int {
	if w.Buckets <= 0 {
		return DefaultBuckets
	}
	return w.Buckets
}

// bounded is w as a circuit records it: a time window's buckets with
// their default, and a window no larger than the largest. Valid settings
// with their defaults are bounded already.
func (w Window) bounded() Window {
	w.Size = min(w.Size, MaxWindowSize)
	w.Buckets = min(w.buckets(), MaxWindowBuckets)
	return w
}

// problem says what is wrong with b, or "".
func (b Backoff) problem() string {
	switch {
	case math.IsNaN(b.Multiplier) || math.IsInf(b.Multiplier, 0) || b.Multiplier < 0 || (b.Multiplier > 0 && b.Multiplier < 1):
		return fmt.Sprintf("Backoff.Multiplier %v is not 0 or >= 1", b.Multiplier)
	case b.Max < 0:
		return fmt.Sprintf("Backoff.Max %v is negative", b.Max)
	case math.IsNaN(b.Jitter) || b.Jitter < 0 || b.Jitter > 1:
		return fmt.Sprintf("Backoff.Jitter %v is outside 0..1", b.Jitter)
	}
	return ""
}
