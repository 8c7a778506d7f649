package dashboard

import (
	"fmt"

	"github.com/tripwire-go/tripwire"
)

// Severity orders the keys on the page and in the API, worst first: Open,
// HalfOpen, Forced (forced closed: forced open is Open), Failing (closed,
// with failures, rejections or overloads in the statistics window), then
// Healthy. Its JSON is its name.
type Severity int

// The severities, least first.
const (
	Healthy Severity = iota
	Failing
	Forced
	HalfOpen
	Open
)

var severityNames = [...]string{"healthy", "failing", "forced", "half_open", "open"}

// String returns "healthy", "failing", "forced", "half_open" or "open".
func (s Severity) String() string {
	if s < Healthy || s > Open {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// MarshalText writes s as String does.
func (s Severity) MarshalText() ([]byte, error) {
	if s < Healthy || s > Open {
		return nil, fmt.Errorf("dashboard: no such severity %d", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads what MarshalText writes.
func (s *Severity) UnmarshalText(b []byte) error {
	for i, name := range severityNames {
		if string(b) == name {
			*s = Severity(i)
			return nil
		}
	}
	return fmt.Errorf("dashboard: no such severity %q", b)
}

// severityOf is the severity of a key in st, forced as f, failing or not.
func severityOf(st tripwire.State, f tripwire.Force, failing bool) Severity {
	switch {
	case st == tripwire.Open:
		return Open
	case st == tripwire.HalfOpen:
		return HalfOpen
	case f != tripwire.NotForced:
		return Forced
	case failing:
		return Failing
	}
	return Healthy
}

// failingIn reports whether the window of s has failures, rejections or
// overloads: a closed key that is not healthy.
func failingIn(s tripwire.Stats) bool {
	r := s.Recent
	return r.Failures > 0 || r.Rejected > 0 || r.Overloaded > 0
}
