package dashboard

import (
	"math"
	"time"
)

// utc is t without its monotonic reading, in UTC, so rows compare with ==.
func utc(t time.Time) time.Time {
	if t.IsZero() || t.UnixNano() == 0 {
		return time.Time{}
	}
	return t.Round(0).UTC()
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// round is x to digits significant digits: what a page shows, so a figure
// that moves in its noise is not a change. The power of ten it scales by
// is exact, so the result is the double nearest the rounded decimal.
func round(x float64, digits int) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	n := digits - int(math.Ceil(math.Log10(math.Abs(x))))
	if n >= 0 {
		p := math.Pow10(n)
		return math.Round(x*p) / p
	}
	q := math.Pow10(-n)
	return math.Round(x/q) * q
}
