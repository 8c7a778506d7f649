package dashboard

import (
	"time"

	"github.com/tripwire-go/tripwire"
)

// Transition is one change of a key's circuit state as the API and the page
// see it. Seq numbers the transitions the dashboard has seen, from 1.
type Transition struct {
	Seq       uint64    `json:"seq"`
	Key       string    `json:"key"`
	From      string    `json:"from"`
	To        string    `json:"to"`
	Reason    string    `json:"reason"`
	At        time.Time `json:"at"`
	Failures  int       `json:"failures"`
	Fresh     bool      `json:"fresh,omitempty"`     // a trip from closed
	OpenForMs float64   `json:"openForMs,omitempty"` // on a close: how long it was not closed
}

func transitionOf(seq uint64, tr tripwire.Transition) Transition {
	return Transition{
		Seq: seq, Key: tr.Key, From: tr.From.String(), To: tr.To.String(), Reason: tr.Reason,
		At: tr.At, Failures: tr.Failures, Fresh: tr.Fresh, OpenForMs: ms(tr.OpenFor),
	}
}
