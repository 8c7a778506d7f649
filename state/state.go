package state

// State is the position of a circuit: Closed, Open or HalfOpen.
type State int32

const (
	// Closed forwards every call and counts consecutive failures.
	Closed State = iota
	// Open rejects every call until the recovery timer fires.
	Open
	// HalfOpen admits a single probe; its outcome closes or re-opens the circuit.
	HalfOpen
)

var stateNames = []string{"closed", "open", "half_open"}

// String returns "closed", "open" or "half_open".
func (s State) String() string { return nameOf(s, stateNames, "unknown") }

// MarshalText writes s as String does, so JSON shows "open", not 1.
func (s State) MarshalText() ([]byte, error) { return marshalName("state", s, stateNames) }

// UnmarshalText reads what MarshalText writes.
func (s *State) UnmarshalText(b []byte) error { return unmarshalName("state", s, b, stateNames) }
