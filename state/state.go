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

// String returns "closed", "open" or "half_open".
func (s State) String() string {
	switch s {
	case Closed:
		return "closed"
	case Open:
		return "open"
	case HalfOpen:
		return "half_open"
	default:
		return "unknown"
	}
}
