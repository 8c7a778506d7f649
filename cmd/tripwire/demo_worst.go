package main

import (
	"cmp"
	"slices"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/demo"
)

// stateRank orders states worst first: open, then half-open, then closed.
var stateRank = map[tripwire.State]int{tripwire.Open: 0, tripwire.HalfOpen: 1, tripwire.Closed: 2}

// worstFirst returns rows sorted worst first, for a table that cannot show
// every key: open circuits, then half-open, then closed; within a state the
// most consecutive failures, then the most calls that failed or were
// rejected; then by key.
func worstFirst(rows []demo.Row) []demo.Row {
	sorted := slices.Clone(rows)
	slices.SortStableFunc(sorted, func(a, b demo.Row) int {
		return cmp.Or(
			cmp.Compare(rank(a.State), rank(b.State)),
			cmp.Compare(b.Failures, a.Failures),
			cmp.Compare(b.Failed+b.Timeouts+b.Rejected, a.Failed+a.Timeouts+a.Rejected),
			cmp.Compare(a.Key, b.Key),
		)
	})
	return sorted
}

// rank is st's place in stateRank; a state it does not know goes last.
func rank(st tripwire.State) int {
	if r, ok := stateRank[st]; ok {
		return r
	}
	return len(stateRank)
}
