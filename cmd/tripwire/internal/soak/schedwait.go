package soak

import (
	"math"
	"runtime/metrics"
	"time"
)

// schedLatencies is the runtime's histogram of how long goroutines waited
// runnable before they ran: in a process whose cores are busy, a goroutine
// woken by a channel send (a caller given its answer) can wait in a run
// queue for tens of milliseconds while both processors run others. The
// stall probes do not see that wait: a goroutine woken by its timer skips
// the queue. The runtime samples one transition in eight or so.
const schedLatencies = "/sched/latencies:seconds"

// schedWaits reads the histogram now (nil if the runtime has none).
func schedWaits() *metrics.Float64Histogram {
	s := []metrics.Sample{{Name: schedLatencies}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return nil
	}
	return s[0].Value.Float64Histogram()
}

// SchedWaits is what the runtime's scheduling-latency histogram recorded
// during a run: the sampled waits of a runnable goroutine of at least
// LateSlack, and the lower bound of the longest one's bucket.
type SchedWaits struct {
	Over    uint64
	Longest time.Duration
}

// schedWaitsBetween is what was added to the histogram from before to
// after (the same buckets: one process's). A bucket counts as over min if
// its lower bound is at least min.
func schedWaitsBetween(before, after *metrics.Float64Histogram, min time.Duration) SchedWaits {
	var w SchedWaits
	if before == nil || after == nil || len(before.Counts) != len(after.Counts) {
		return w
	}
	for i := range after.Counts {
		n := after.Counts[i] - before.Counts[i]
		if n == 0 {
			continue
		}
		low := after.Buckets[i]
		if math.IsInf(low, -1) {
			low = 0
		}
		d := time.Duration(low * float64(time.Second))
		if d >= min {
			w.Over += n
		}
		w.Longest = max(w.Longest, d)
	}
	return w
}
