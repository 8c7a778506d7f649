package dashboard

import (
	"time"

	"github.com/tripwire-go/tripwire/state"
)

// Transition is one change of a key's circuit state as the API and the page
// see it (state.Transition): a restart of a crashed breaker is one too,
// closed to closed with reason "restarted". Seq numbers the transitions
// the handler has seen, from 1.
type Transition struct {
	Seq      uint64      `json:"seq"`
	Key      string      `json:"key"`
	From     state.State `json:"from"`
	To       state.State `json:"to"`
	Reason   string      `json:"reason"`
	At       time.Time   `json:"at"`
	Failures int         `json:"failures"`
	// Fresh is a trip from closed; OpenForMs, on a close, how long the
	// circuit was not closed.
	Fresh     bool    `json:"fresh,omitempty"`
	OpenForMs float64 `json:"open_for_ms,omitempty"`
}

func transitionOf(seq uint64, tr state.Transition) Transition {
	return Transition{
		Seq: seq, Key: tr.Key, From: tr.From, To: tr.To, Reason: reasonText(tr.Reason),
		At: utc(tr.At), Failures: tr.Failures, Fresh: tr.Fresh, OpenForMs: round(ms(tr.OpenFor), 4),
	}
}

// reasonText is r as the JSON API shows it: "" for none yet.
func reasonText(r state.Reason) string {
	if r == state.ReasonNone {
		return ""
	}
	return r.String()
}
