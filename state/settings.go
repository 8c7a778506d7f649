package state

import "time"

// Limits of a failure-rate window.
const (
	MaxWindowSize    = 1024 // calls in a count window
	MaxWindowBuckets = 60   // buckets of a time window
)

// Settings are the rules of one circuit. The circuit takes them as they are:
// check them with Validate and fill their defaults with WithDefaults first.
type Settings struct {
	// Threshold is the number of consecutive failures that opens the
	// circuit when Window is not used.
	Threshold int
	// OpenTimeout is how long the circuit stays open before it half-opens
	// (before Backoff).
	OpenTimeout time.Duration
	// Window, if set, trips on a failure rate instead of consecutive failures.
	Window Window
	// SlowCall, if positive, makes a successful call that took longer count
	// as a failure.
	SlowCall time.Duration
	// Backoff stretches the open time of each re-open without a close.
	Backoff Backoff
	// HalfOpenProbes is how many probes a half-open circuit admits, at once;
	// all must succeed to close it. Zero means one.
	HalfOpenProbes int
}

// Window is a failure-rate trip policy: over the last Size calls (a count
// window), or the calls of the last Period split into Buckets (a time
// window), the circuit opens once at least MinCalls were recorded and the
// share of failures reaches FailureRate. The zero Window means consecutive
// failures (Settings.Threshold).
type Window struct {
	Size        int
	Period      time.Duration
	Buckets     int
	MinCalls    int
	FailureRate float64
}

// Count reports whether w is a count window.
func (w Window) Count() bool { return w.Size > 0 }

// Timed reports whether w is a time window.
func (w Window) Timed() bool { return w.Period > 0 }

// sameShape reports whether w records outcomes the same way as o, so that
// what o recorded is still valid under w.
func (w Window) sameShape(o Window) bool {
	return w.Size == o.Size && w.Period == o.Period && w.Buckets == o.Buckets
}

// Backoff multiplies the open time by Multiplier for each re-open since the
// last close, caps it at Max, and spreads it by ±Jitter (a fraction) of
// itself, never beyond Max. The zero Backoff keeps OpenTimeout fixed.
type Backoff struct {
	Multiplier float64
	Max        time.Duration
	Jitter     float64
}

func (s Settings) probes() int {
	if s.HalfOpenProbes < 1 {
		return 1
	}
	return s.HalfOpenProbes
}
