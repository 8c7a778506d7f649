package state

import "time"

// Summary adds up a key's statistics for a report (Stats): its window's
// calls and latencies at an instant, its totals, and what was counted
// outside the window (AddSuccesses).
type Summary struct {
	epoch int64
	stats Stats // but its rates and percentiles, which Stats works out
	bins  LatencyBins
	n     uint64 // the latencies in bins
}

// Summarize begins the summary of r and total at now. The window covers
// its newest StatsBuckets epochs, the current one in part.
func (r *Rolling) Summarize(total Totals, now time.Duration) Summary {
	s := Summary{epoch: r.Epoch(now)}
	s.stats.Window = now - r.origin
	if s.epoch > StatsBuckets {
		s.stats.Window -= time.Duration(s.epoch-StatsBuckets) * statsWidth
	}
	for i := range r.buckets {
		b := &r.buckets[i]
		if !b.in(s.epoch) {
			continue
		}
		for t, n := range b.n {
			s.stats.Recent.Add(Tally(t), uint64(n))
		}
		if b.nLat > 0 {
			b.lat.addTo(&s.bins)
			s.n += uint64(b.nLat)
			s.stats.Latency.Max = max(s.stats.Latency.Max, b.max)
		}
	}
	s.stats.Total = countsOf(r.Totals(total))
	return s
}

// AddSuccesses adds n successes of epoch e the window has not taken in
// (Rolling.AddSuccesses): to the totals, and to the window's calls if it
// holds e.
func (s *Summary) AddSuccesses(e int64, n uint32, bins *LatencyBins, slowest time.Duration) {
	s.stats.Total.Add(TallySuccess, uint64(n))
	if e <= s.epoch-StatsBuckets {
		return
	}
	s.stats.Recent.Add(TallySuccess, uint64(n))
	for i := range bins {
		s.bins[i] += bins[i]
	}
	s.n += uint64(n)
	s.stats.Latency.Max = max(s.stats.Latency.Max, slowest)
}

// Stats are the statistics the summary adds up to.
func (s *Summary) Stats() Stats {
	st := s.stats
	lat := &st.Latency
	lat.Calls = s.n
	lat.P50 = s.bins.percentile(s.n, 0.50, lat.Max)
	lat.P90 = s.bins.percentile(s.n, 0.90, lat.Max)
	lat.P99 = s.bins.percentile(s.n, 0.99, lat.Max)
	if secs := st.Window.Seconds(); secs > 0 {
		st.CallsPerSecond = float64(st.Recent.Calls) / secs
		st.FailuresPerSecond = float64(st.Recent.Failures) / secs
		st.RejectedPerSecond = float64(st.Recent.Rejected) / secs
	}
	if v := st.Recent.Successes + st.Recent.Failures; v > 0 {
		st.ErrorPercent = 100 * float64(st.Recent.Failures) / float64(v)
	}
	return st
}

// QuietStats are the statistics of a key without a window: total alone.
func QuietStats(total Totals) Stats {
	return Stats{Window: StatsWindow, Total: countsOf(total)}
}

// countsOf is total as Counts.
func countsOf(total Totals) Counts {
	var c Counts
	for t, n := range total {
		c.Add(Tally(t), n)
	}
	return c
}
