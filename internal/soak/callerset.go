package soak

import (
	"sync/atomic"
	"time"
)

// callerSet is the goroutine callers of a run.
type callerSet struct {
	stop    chan struct{}
	results chan callerResult
	current []atomic.Int64 // id of each caller's call in flight (0: none)
	done    []bool         // which callers have returned their tally
	tallies []callerTally  // of the callers that returned
	left    int            // callers still running
}

// callerResult is a caller's tally once it has returned.
type callerResult struct {
	i     int
	tally callerTally
}

// startCallers starts n callers.
func (h *harness) startCallers(n int) *callerSet {
	s := &callerSet{
		stop:    make(chan struct{}),
		results: make(chan callerResult, n), // a caller that returns late never blocks
		current: make([]atomic.Int64, n),
		done:    make([]bool, n),
		left:    n,
	}
	for i := range n {
		go func() { s.results <- callerResult{i, h.caller(i, s.stop, &s.current[i])} }()
	}
	return s
}

// halt tells every caller to make no more calls.
func (s *callerSet) halt() { close(s.stop) }

// wait collects the tallies of returning callers for at most d, and reports
// whether every caller has returned.
func (s *callerSet) wait(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for s.left > 0 {
		select {
		case r := <-s.results:
			s.done[r.i] = true
			s.tallies = append(s.tallies, r.tally)
			s.left--
		case <-t.C:
			return false
		}
	}
	return true
}

// inFlight returns the ids of the calls of the callers that have not
// returned.
func (s *callerSet) inFlight() []int64 {
	var ids []int64
	for i := range s.current {
		if id := s.current[i].Load(); !s.done[i] && id != 0 {
			ids = append(ids, id)
		}
	}
	return ids
}
