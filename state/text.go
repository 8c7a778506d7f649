package state

import "fmt"

// MarshalText writes s as String does, so JSON shows "open", not 1.
func (s State) MarshalText() ([]byte, error) {
	if s < Closed || s > HalfOpen {
		return nil, fmt.Errorf("state: no such state %d", int32(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads what MarshalText writes.
func (s *State) UnmarshalText(b []byte) error {
	for _, c := range []State{Closed, Open, HalfOpen} {
		if string(b) == c.String() {
			*s = c
			return nil
		}
	}
	return fmt.Errorf("state: no such state %q", b)
}

// String returns "not_forced", "forced_open" or "forced_closed".
func (f Force) String() string {
	switch f {
	case NotForced:
		return "not_forced"
	case ForcedOpen:
		return "forced_open"
	case ForcedClosed:
		return "forced_closed"
	}
	return "unknown"
}

// MarshalText writes f as String does.
func (f Force) MarshalText() ([]byte, error) {
	if f > ForcedClosed {
		return nil, fmt.Errorf("state: no such force %d", f)
	}
	return []byte(f.String()), nil
}

// UnmarshalText reads what MarshalText writes.
func (f *Force) UnmarshalText(b []byte) error {
	for _, c := range []Force{NotForced, ForcedOpen, ForcedClosed} {
		if string(b) == c.String() {
			*f = c
			return nil
		}
	}
	return fmt.Errorf("state: no such force %q", b)
}
