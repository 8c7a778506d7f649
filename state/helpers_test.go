package state

import "time"

// applyTo is Apply on a copy of c: the circuit after ev, and the effects.
func applyTo(c Circuit, ev Event, now time.Time, fx []Effect) (Circuit, []Effect) {
	c = c.Clone()
	fx = c.Apply(ev, now, fx)
	return c, fx
}

// withSettings is Reconfigure on a copy of c.
func withSettings(c Circuit, s Settings) Circuit {
	c = c.Clone()
	c.Reconfigure(&s)
	return c
}

// newCircuit is New for settings given by value.
func newCircuit(s Settings, incarnation uint64) Circuit { return New(&s, incarnation) }

func ptr[T any](v T) *T { return &v }
