package soak

import (
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/load"
)

// callerSet is the goroutine callers of a run.
type callerSet struct {
	*load.Callers
	callers []caller
}

// startCallers starts n callers.
func (h *harness) startCallers(n int) *callerSet {
	s := &callerSet{callers: make([]caller, n)}
	for i := range s.callers {
		s.callers[i] = caller{h: h, rng: h.rng(7, uint64(i))}
	}
	s.Callers = load.Start(n, func(i int) time.Duration { return s.callers[i].call() })
	return s
}

// tallies returns the tallies of the callers that have returned, in the
// order they returned.
func (s *callerSet) tallies() []callerTally {
	var tallies []callerTally
	for _, i := range s.Returned() {
		tallies = append(tallies, s.callers[i].tally)
	}
	return tallies
}

// inFlight returns the ids of the calls of the callers that have not
// returned.
func (s *callerSet) inFlight() []int64 {
	var ids []int64
	for _, i := range s.Running() {
		if id := s.callers[i].current.Load(); id != 0 {
			ids = append(ids, id)
		}
	}
	return ids
}
