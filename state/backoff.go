package state

import (
	"math"
	"time"
)

// openTime is how long the circuit stays open after reopens re-opens since
// the last close; r in [0,1) picks the jitter.
func (s Settings) openTime(reopens int, r float64) time.Duration {
	d := float64(s.OpenTimeout)
	b := s.Backoff
	if b.Multiplier > 1 && reopens > 0 {
		d *= math.Pow(b.Multiplier, float64(reopens))
	}
	if b.Max > 0 {
		d = math.Min(d, float64(b.Max))
	}
	d = math.Min(d, math.MaxFloat64) // Multiplier^reopens may overflow to +Inf, and Inf*0 is NaN
	if b.Jitter > 0 {
		d *= 1 + b.Jitter*(2*r-1)
		if b.Max > 0 {
			d = math.Min(d, float64(b.Max))
		}
	}
	if d >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(d)
}
