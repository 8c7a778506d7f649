package state

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestSummaryStats(t *testing.T) {
	lat := func(d time.Duration) time.Duration { return latValue(LatencyBin(d)) }
	tests := []struct {
		name  string
		steps []rollStep
		at    time.Duration
		live  func(s *Summary) // what is added to the summary, not the window
		want  Stats
	}{
		{"an empty window: no rates, no latency", nil, 9*time.Second + 500*ms, nil,
			Stats{Window: 9*time.Second + 500*ms}},
		{"rates per second over what the window covers",
			[]rollStep{counted(0, TallySuccess, ms), counted(0, TallyFailure, ms), counted(ms, TallyFailure, ms),
				counted(time.Second, TallyRejected, 0)}, 2 * time.Second, nil,
			Stats{
				Window:         2 * time.Second,
				Recent:         Counts{Calls: 4, Successes: 1, Failures: 2, Rejected: 1},
				Total:          Counts{Calls: 4, Successes: 1, Failures: 2, Rejected: 1},
				CallsPerSecond: 2, FailuresPerSecond: 1, RejectedPerSecond: 0.5,
				ErrorPercent: 200.0 / 3,
				Latency:      Latency{Calls: 3, P50: lat(ms), P90: lat(ms), P99: lat(ms), Max: ms},
			}},
		{"the error percent counts only calls with a verdict",
			[]rollStep{counted(0, TallyFailure, ms), counted(0, TallyIgnored, ms), counted(0, TallyCanceled, 0)}, time.Second, nil,
			Stats{
				Window:         time.Second,
				Recent:         Counts{Calls: 3, Failures: 1, Ignored: 1, Canceled: 1},
				Total:          Counts{Calls: 3, Failures: 1, Ignored: 1, Canceled: 1},
				CallsPerSecond: 3, FailuresPerSecond: 1, ErrorPercent: 100,
				Latency: Latency{Calls: 2, P50: lat(ms), P90: lat(ms), P99: lat(ms), Max: ms},
			}},
		{"percentiles over the window's latencies and those added",
			[]rollStep{counted(0, TallySuccess, ms), counted(0, TallySuccess, 2*ms)}, time.Second,
			func(s *Summary) {
				var bins LatencyBins
				bins[LatencyBin(300*ms)] = 2
				s.AddSuccesses(1, 2, &bins, 300*ms)
			},
			Stats{
				Window:         time.Second,
				Recent:         Counts{Calls: 4, Successes: 4},
				Total:          Counts{Calls: 4, Successes: 4},
				CallsPerSecond: 4,
				Latency:        Latency{Calls: 4, P50: lat(2 * ms), P90: 300 * ms, P99: 300 * ms, Max: 300 * ms}, // capped by Max,
			}},
		{"successes added of an epoch the window no longer holds count in the totals alone",
			nil, 11*time.Second + 500*ms,
			func(s *Summary) {
				var bins LatencyBins
				bins[LatencyBin(ms)] = 3
				s.AddSuccesses(2, 3, &bins, time.Hour)
			},
			Stats{Window: 9*time.Second + 500*ms, Total: Counts{Calls: 3, Successes: 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := new(Rolling)
			r.Start(0)
			var total Totals
			for _, s := range tt.steps {
				s(r, &total)
			}
			sum := r.Summarize(total, tt.at)
			if tt.live != nil {
				tt.live(&sum)
			}
			got := sum.Stats()
			require.InDelta(t, tt.want.ErrorPercent, got.ErrorPercent, 1e-9)
			got.ErrorPercent = tt.want.ErrorPercent
			require.Equal(t, tt.want, got)
		})
	}
}

func TestQuietStatsAreTheTotalsAndAnEmptyWindow(t *testing.T) {
	st := QuietStats(Totals{TallySuccess: 2, TallyTimeout: 1, TallyOverloaded: 4})
	require.Equal(t, Stats{
		Window: StatsWindow,
		Total:  Counts{Calls: 7, Successes: 2, Failures: 1, Timeouts: 1, Overloaded: 4},
	}, st)
}

func TestCountsAddEveryTally(t *testing.T) {
	want := []Counts{
		TallySuccess:    {Calls: 2, Successes: 2},
		TallyFailure:    {Calls: 2, Failures: 2},
		TallyTimeout:    {Calls: 2, Failures: 2, Timeouts: 2},
		TallyRejected:   {Calls: 2, Rejected: 2},
		TallyOverloaded: {Calls: 2, Overloaded: 2},
		TallyIgnored:    {Calls: 2, Ignored: 2},
		TallyCanceled:   {Calls: 2, Canceled: 2},
	}
	require.Len(t, want, int(Tallies))
	for tl, w := range want {
		var c Counts
		c.Add(Tally(tl), 2)
		require.Equal(t, w, c, "tally %d", tl)
	}
}
