package state

// Verdict is how a call's result counts for its circuit, as a classifier
// (Settings.Classify, or IsFailure) decides it.
type Verdict uint8

const (
	// Success resets the consecutive failures and counts as a success.
	Success Verdict = iota
	// Failure counts toward opening the circuit.
	Failure
	// Ignore counts neither way; a half-open probe's permit is freed.
	Ignore
)
