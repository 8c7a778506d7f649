package dashboard

import (
	"fmt"

	"github.com/tripwire-go/tripwire/state"
)

// Severity orders the keys on the page and in the API, worst first: Open,
// HalfOpen, Forced (forced closed: forced open is Open), Failing (closed,
// with failures or overloads in the statistics window: a circuit that
// opened and closed again stays Failing while its window holds what opened
// it), then Healthy. Its JSON is its name.
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
func severityOf(st state.State, f state.Force, failing bool) Severity {
	switch {
	case st == state.Open:
		return Open
	case st == state.HalfOpen:
		return HalfOpen
	case f != state.NotForced:
		return Forced
	case failing:
		return Failing
	}
	return Healthy
}

// failingIn reports whether the window of s has failures or overloads: a
// closed key that is not healthy. Rejections are not: a closed circuit
// rejects nothing, so they are from before it closed.
func failingIn(s state.Stats) bool {
	return s.Recent.Failures > 0 || s.Recent.Overloaded > 0
}
