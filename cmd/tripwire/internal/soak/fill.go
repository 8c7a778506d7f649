package soak

// fill completes rep from the callers' tallies, running the number of
// callers that never returned (each with one call in flight), and the
// harness's own records.
func (h *harness) fill(rep *Report, tallies []callerTally, running int) {
	var all callerTally
	for _, t := range tallies {
		all.merge(t)
	}
	rep.Calls = all.started + int64(running)
	rep.Answers = all.answers
	rep.Missing = all.missing + int64(running)
	rep.Duplicated, rep.Crossed, rep.Refused = all.dups, all.crossed, all.refused
	rep.Unexpected = all.unexpects
	rep.Late, rep.LateLost, rep.MaxOver = all.lates, all.lateLost, all.maxOver
	rep.SendsKnown, rep.MaxSentOver = h.live.sends != nil, all.maxSent
	rep.PastDue, rep.SentKnown = all.pastDue, all.sentKnown

	rep.PerKey = make([]Counts, len(h.live.perKey))
	for k := range h.live.perKey {
		rep.PerKey[k] = h.live.perKey[k].load()
	}
	for _, s := range h.scripts {
		c := s.Counts()
		rep.Scripts.Calls += c.Calls
		rep.Scripts.Failures += c.Failures
		rep.Scripts.Panics += c.Panics
		rep.Scripts.Hangs += c.Hangs
		rep.Scripts.Downs += c.Downs
	}
	rep.PeakInvocations, rep.PeakWorkers = h.peakTarget.load(), h.maxWorkers.load()
	rep.PeakGoroutines, rep.Samples = h.maxGorout.load(), h.samples.Load()
	rep.Stalls = h.stalls.spans()
	for _, l := range rep.Late {
		if l.SentOnTime() {
			rep.SentOnTime++
			rep.LongestWait = max(rep.LongestWait, l.Waited())
		}
		switch {
		case !l.excused(rep.Stalls):
			rep.Unexcused = append(rep.Unexcused, l)
		case !h.stalls.alone(l):
			rep.ExcusedAcross++
		}
	}
	h.mu.Lock()
	rep.Problems = append([]string(nil), h.problems...)
	h.mu.Unlock()
}
