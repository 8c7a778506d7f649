package state

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A rollStep is something that happens to a window and its totals.
type rollStep func(r *Rolling, total *Totals)

// counted is a call that ended as t at at (on the window's clock), with
// latency d if d > 0.
func counted(at time.Duration, t Tally, d time.Duration) rollStep {
	return func(r *Rolling, total *Totals) { r.Count(total, t, r.Epoch(at), d, d > 0) }
}

// folded is a fold at at of the callers' counts since the window began.
func folded(at time.Duration, rejected, overloaded uint64) rollStep {
	return func(r *Rolling, total *Totals) { r.Fold(total, r.Epoch(at), rejected, overloaded) }
}

// hot is n successes of epoch e, each of latency d, taken in at epoch cur.
func hot(e, cur int64, n uint32, d time.Duration) rollStep {
	return func(r *Rolling, total *Totals) {
		var bins LatencyBins
		bins[LatencyBin(d)] = n
		r.AddSuccesses(total, e, cur, n, &bins, d)
	}
}

// seen is what a report shows of a window: what it covers, its counts,
// and how many latencies it measured.
type seen struct {
	Window        time.Duration
	Recent, Total Counts
	Measured      uint64
}

func seenOf(st Stats) seen {
	return seen{Window: st.Window, Recent: st.Recent, Total: st.Total, Measured: st.Latency.Calls}
}

// run starts a window at 0, takes steps, and reports at at.
func run(steps []rollStep, at time.Duration) (*Rolling, Totals, Stats) {
	r := new(Rolling)
	r.Start(0)
	var total Totals
	for _, s := range steps {
		s(r, &total)
	}
	sum := r.Summarize(total, at)
	return r, total, sum.Stats()
}

const ms = time.Millisecond

func TestRollingWindowCounts(t *testing.T) {
	var everySecond []rollStep
	for i := range 26 {
		at := time.Duration(i) * time.Second
		everySecond = append(everySecond, counted(at, TallySuccess, ms))
		if i == 0 || i == 25 {
			everySecond = append(everySecond, counted(at, TallyFailure, ms))
		}
	}
	tests := []struct {
		name  string
		steps []rollStep
		at    time.Duration
		want  seen
	}{
		{"nothing yet", nil, 500 * ms, seen{Window: 500 * ms}},
		{"a call counts in the window and the totals, with its latency",
			[]rollStep{counted(500*ms, TallySuccess, ms)}, 500 * ms,
			seen{500 * ms, Counts{Calls: 1, Successes: 1}, Counts{Calls: 1, Successes: 1}, 1}},
		{"a call not measured has no latency",
			[]rollStep{counted(500*ms, TallyCanceled, 0)}, time.Second,
			seen{time.Second, Counts{Calls: 1, Canceled: 1}, Counts{Calls: 1, Canceled: 1}, 0}},
		{"a timeout is a failure too",
			[]rollStep{counted(0, TallyTimeout, ms)}, time.Second,
			seen{time.Second, Counts{Calls: 1, Failures: 1, Timeouts: 1}, Counts{Calls: 1, Failures: 1, Timeouts: 1}, 1}},
		{"an instant before the origin is in the first epoch",
			[]rollStep{counted(-5*time.Second, TallyIgnored, 0)}, 500 * ms,
			seen{500 * ms, Counts{Calls: 1, Ignored: 1}, Counts{Calls: 1, Ignored: 1}, 0}},
		{"the window holds the newest ten epochs, the totals every call", everySecond, 25*time.Second + 500*ms,
			seen{9*time.Second + 500*ms, Counts{Calls: 11, Successes: 10, Failures: 1}, Counts{Calls: 28, Successes: 26, Failures: 2}, 11}},
		{"a call whose epoch is ten old is out of the window",
			[]rollStep{counted(500*ms, TallySuccess, ms)}, 10*time.Second + 500*ms,
			seen{9*time.Second + 500*ms, Counts{}, Counts{Calls: 1, Successes: 1}, 0}},
		{"the callers' counts spread evenly over the epochs since the last fold",
			[]rollStep{folded(500*ms, 0, 0), folded(4*time.Second+500*ms, 8, 4)}, 11*time.Second + 500*ms, // epochs 2-5: 2 and 1 each
			seen{9*time.Second + 500*ms, Counts{Calls: 9, Rejected: 6, Overloaded: 3}, Counts{Calls: 12, Rejected: 8, Overloaded: 4}, 0}},
		{"the rounding's remainder goes to the newest epoch",
			[]rollStep{folded(500*ms, 0, 0), folded(2*time.Second+500*ms, 7, 0)}, 11*time.Second + 500*ms, // epoch 2: 3, epoch 3: 4
			seen{9*time.Second + 500*ms, Counts{Calls: 4, Rejected: 4}, Counts{Calls: 7, Rejected: 7}, 0}},
		{"a fold over more than a window leaves what its buckets do not take to the totals",
			[]rollStep{folded(29*time.Second+500*ms, 100, 0)}, 29*time.Second + 500*ms, // 29 epochs: 3 each, 16 in the newest
			seen{9*time.Second + 500*ms, Counts{Calls: 43, Rejected: 43}, Counts{Calls: 100, Rejected: 100}, 0}},
		{"folding the same counts again adds nothing",
			[]rollStep{folded(500*ms, 5, 0), folded(1500*ms, 5, 0)}, 2 * time.Second,
			seen{2 * time.Second, Counts{Calls: 5, Rejected: 5}, Counts{Calls: 5, Rejected: 5}, 0}},
		{"successes counted outside go to their epoch's bucket",
			[]rollStep{hot(2, 3, 5, ms)}, 2*time.Second + 500*ms,
			seen{2*time.Second + 500*ms, Counts{Calls: 5, Successes: 5}, Counts{Calls: 5, Successes: 5}, 5}},
		{"successes of an epoch the window no longer holds go to the totals",
			[]rollStep{hot(3, 13, 5, ms)}, 12*time.Second + 500*ms,
			seen{9*time.Second + 500*ms, Counts{}, Counts{Calls: 5, Successes: 5}, 0}},
		{"successes of an epoch whose bucket serves a later one go to the totals",
			[]rollStep{counted(13*time.Second+500*ms, TallyFailure, ms), hot(4, 13, 5, ms)}, 13*time.Second + 500*ms,
			seen{9*time.Second + 500*ms, Counts{Calls: 1, Failures: 1}, Counts{Calls: 6, Successes: 5, Failures: 1}, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, st := run(tt.steps, tt.at)
			require.Equal(t, tt.want, seenOf(st))
		})
	}
}

func TestStatsEpoch(t *testing.T) {
	tests := []struct {
		origin, now time.Duration
		want        int64
	}{
		{0, -time.Hour, 1},
		{0, 0, 1},
		{0, time.Second - 1, 1},
		{0, time.Second, 2},
		{5 * time.Second, 15*time.Second + 500*ms, 11},
		{-time.Second, 0, 2}, // an origin below zero: a monotonic clock's may be
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, StatsEpoch(tt.origin, tt.now), "origin %v, now %v", tt.origin, tt.now)
	}
}

func TestAFullBucketLeavesItsCallsToTheTotals(t *testing.T) {
	const full = ^uint32(0)
	tests := []struct {
		name      string
		fill      func(b *statsBucket)
		then      rollStep
		want      uint64 // the totals' count of the kind
		kind      Tally
		latencies uint32 // the bucket's after it
	}{
		{"a count", func(b *statsBucket) { b.n[TallySuccess] = full }, counted(0, TallySuccess, 0),
			uint64(full) + 1, TallySuccess, 0},
		{"a fold", func(b *statsBucket) { b.n[TallyRejected] = full - 1 }, folded(0, 5, 0),
			uint64(full) + 4, TallyRejected, 0},
		{"successes counted outside", func(b *statsBucket) { b.n[TallySuccess] = full - 2 }, hot(1, 1, 5, ms),
			uint64(full) + 3, TallySuccess, 5},
		{"a latency", func(b *statsBucket) { b.nLat = full }, counted(0, TallySuccess, ms),
			1, TallySuccess, full},
		{"latencies counted outside", func(b *statsBucket) { b.nLat = full - 1 }, hot(1, 1, 2, ms),
			2, TallySuccess, full - 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := new(Rolling)
			r.Start(0)
			var total Totals
			tt.fill(r.bucket(&total, 1))
			tt.then(r, &total)
			require.Equal(t, tt.want, r.Totals(total)[tt.kind])
			require.Equal(t, tt.latencies, r.buckets[1].nLat)
		})
	}
}

func TestActiveIsWhetherTheWindowHoldsACall(t *testing.T) {
	r := new(Rolling)
	r.Start(0)
	require.False(t, r.Active(1), "nothing yet")
	var total Totals
	r.Count(&total, TallyCanceled, 3, 0, false)
	for e, want := range map[int64]bool{2: false, 3: true, 12: true, 13: false} {
		require.Equal(t, want, r.Active(e), "epoch %d", e)
	}
}

func TestTotalsAreWhatTheWindowLetGoOfAndWhatItHolds(t *testing.T) {
	r := new(Rolling)
	r.Start(0)
	total := Totals{TallySuccess: 3}
	r.Count(&total, TallySuccess, 1, 0, false)
	r.Fold(&total, 1, 5, 1)
	r.Fold(&total, 40, 7, 2) // far past the window: its buckets take none
	want := Totals{TallySuccess: 4, TallyRejected: 7, TallyOverloaded: 2}
	require.Equal(t, want, r.Totals(total))
}
