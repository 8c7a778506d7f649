package main

import (
	"cmp"
	"slices"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/state"
)

// stateRank orders states worst first: open, then half-open, then closed.
var stateRank = map[state.State]int{state.Open: 0, state.HalfOpen: 1, state.Closed: 2}

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
func rank(st state.State) int {
	if r, ok := stateRank[st]; ok {
		return r
	}
	return len(stateRank)
}
