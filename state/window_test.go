package state

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// windowSettings trips on w only: Threshold 1 would trip on any failure if
// the consecutive policy were (wrongly) still applied.
func windowSettings(w Window) Settings {
	return Settings{Threshold: 1, OpenTimeout: 10 * time.Second, Window: w}
}

func TestCountWindow(t *testing.T) {
	tests := []struct {
		name    string
		w       Window
		pattern string
		rates   [][2]int // {fails, calls} after each outcome while closed
		opensAt int      // 1-based outcome that opens the circuit; 0: stays closed
	}{
		{"below MinCalls a 100% rate does not trip", Window{Size: 10, MinCalls: 5, FailureRate: 0.5}, "FFFF",
			[][2]int{{1, 1}, {2, 2}, {3, 3}, {4, 4}}, 0},
		{"the failure that reaches MinCalls at the rate trips", Window{Size: 10, MinCalls: 4, FailureRate: 0.5}, "FFFF",
			[][2]int{{1, 1}, {2, 2}, {3, 3}}, 4},
		{"a rate exactly at FailureRate trips", Window{Size: 4, MinCalls: 4, FailureRate: 0.5}, "SSFF",
			[][2]int{{0, 1}, {0, 2}, {1, 3}}, 4},
		{"below FailureRate stays closed", Window{Size: 10, MinCalls: 4, FailureRate: 0.75}, "SFSFSF",
			[][2]int{{0, 1}, {1, 2}, {1, 3}, {2, 4}, {2, 5}, {3, 6}}, 0},
		{"MinCalls 0 means at least one call", Window{Size: 5, FailureRate: 1}, "F",
			nil, 1},
		{"ignored calls are not recorded", Window{Size: 4, MinCalls: 3, FailureRate: 0.5}, "IFIIFIF",
			[][2]int{{0, 0}, {1, 1}, {1, 1}, {1, 1}, {2, 2}, {2, 2}}, 7},
		{"the ring evicts the oldest outcome", Window{Size: 3, MinCalls: 99, FailureRate: 0.5}, "FFFSSSF",
			[][2]int{{1, 1}, {2, 2}, {3, 3}, {2, 3}, {1, 3}, {0, 3}, {1, 3}}, 0},
		{"an evicted success raises the rate to trip", Window{Size: 4, MinCalls: 4, FailureRate: 0.75}, "SSFFF",
			[][2]int{{0, 1}, {0, 2}, {1, 3}, {2, 4}}, 5},
		{"size 1", Window{Size: 1, MinCalls: 1, FailureRate: 1}, "SSSF",
			[][2]int{{0, 1}, {0, 1}, {0, 1}}, 4},
		{"the largest ring holds MaxWindowSize outcomes", Window{Size: MaxWindowSize, MinCalls: MaxWindowSize + 1, FailureRate: 0.5},
			strings.Repeat("F", MaxWindowSize) + strings.Repeat("S", MaxWindowSize-1), nil, 0},
		{"the largest ring trips when full at the rate", Window{Size: MaxWindowSize, MinCalls: MaxWindowSize, FailureRate: 0.5},
			strings.Repeat("S", MaxWindowSize/2) + strings.Repeat("F", MaxWindowSize/2), nil, MaxWindowSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Given a closed circuit with a count window
			c := newCircuit(windowSettings(tt.w), 7)
			// When the outcomes arrive one by one
			for i, r := range tt.pattern {
				before := c.Clone()
				var fx []Effect
				c, fx = feed(t, c, t0, string(r))
				// Then it stays closed, with these counts, until the
				// outcome that opens it for failure_rate
				if i+1 == tt.opensAt {
					require.Equal(t, Open, c.State, "outcome %d", i+1)
					require.Equal(t, []Reason{ReasonFailureRate}, reasons(fx))
					require.Equal(t, StartTimer, fx[1].Kind)
					require.Equal(t, before.Gen.Seq+1, c.Gen.Seq)
					return
				}
				require.Equal(t, Closed, c.State, "outcome %d", i+1)
				require.Empty(t, fx, "outcome %d", i+1)
				if i < len(tt.rates) {
					require.Equal(t, tt.rates[i], rateOf(c, t0), "{fails, calls} after outcome %d", i+1)
				}
			}
			require.Zero(t, tt.opensAt, "never opened")
		})
	}
}

func TestCountWindowFullRingKeepsOnlyTheNewest(t *testing.T) {
	// Given a full ring of MaxWindowSize failures that cannot trip (MinCalls too high)
	c := newCircuit(windowSettings(Window{Size: MaxWindowSize, MinCalls: MaxWindowSize + 1, FailureRate: 0.5}), 7)
	c, _ = feed(t, c, t0, strings.Repeat("F", MaxWindowSize))
	require.Equal(t, [2]int{MaxWindowSize, MaxWindowSize}, rateOf(c, t0))
	// When MaxWindowSize-1 successes follow
	c, _ = feed(t, c, t0, strings.Repeat("S", MaxWindowSize-1))
	// Then only the newest failure is left
	require.Equal(t, [2]int{1, MaxWindowSize}, rateOf(c, t0))
	// And one more success evicts it
	c, _ = feed(t, c, t0, "S")
	require.Equal(t, [2]int{0, MaxWindowSize}, rateOf(c, t0))
}

func TestConsecutiveThresholdDoesNotApplyToAWindow(t *testing.T) {
	// Given a window that needs 5 calls, and Threshold 1
	c := newCircuit(windowSettings(Window{Size: 10, MinCalls: 5, FailureRate: 0.5}), 7)
	// When 4 failures in a row arrive
	c, fx := feed(t, c, t0, "FFFF")
	// Then it stays closed; Failures still counts the streak
	require.Empty(t, fx)
	require.Equal(t, Closed, c.State)
	require.Equal(t, 4, c.Failures)
}

// timed is a time window of 10 one-second buckets (t0 is on a second).
var timed = Window{Period: 10 * time.Second, Buckets: 10, MinCalls: 3, FailureRate: 0.5}

func TestTimeWindow(t *testing.T) {
	type at struct {
		d       time.Duration // since t0
		outcome string
	}
	type probe struct {
		d    time.Duration
		want [2]int // {fails, calls}
	}
	tests := []struct {
		name   string
		w      Window
		steps  []at
		opens  bool
		probes []probe // WindowRate checks after the steps
	}{
		{"an outcome expires Period after the start of its bucket", timed,
			[]at{{0, "F"}, {time.Second, "F"}},
			false, []probe{{10*time.Second - 1, [2]int{2, 2}}, {10 * time.Second, [2]int{1, 1}},
				{11*time.Second - 1, [2]int{1, 1}}, {11 * time.Second, [2]int{0, 0}}}},
		{"an outcome exactly on a bucket boundary belongs to the new bucket", timed,
			// (buckets count from the window's first outcome, at 0)
			[]at{{0, "S"}, {time.Second - 1, "F"}, {time.Second, "S"}},
			false, []probe{{10*time.Second - 1, [2]int{1, 3}}, {10 * time.Second, [2]int{0, 1}},
				{11*time.Second - 1, [2]int{0, 1}}, {11 * time.Second, [2]int{0, 0}}}},
		{"outcomes within the period trip at the rate", timed,
			[]at{{0, "S"}, {2 * time.Second, "F"}, {9 * time.Second, "F"}},
			true, nil},
		{"MinCalls counts only live buckets", timed,
			[]at{{0, "F"}, {time.Second, "F"}, {10 * time.Second, "F"}},
			false, []probe{{10 * time.Second, [2]int{2, 2}}}},
		{"a live third failure then trips", timed,
			[]at{{0, "F"}, {time.Second, "F"}, {10 * time.Second, "F"}, {10*time.Second + 500*time.Millisecond, "F"}},
			true, nil},
		{"a reused bucket starts from zero", Window{Period: 10 * time.Second, Buckets: 10, MinCalls: 99, FailureRate: 0.5},
			[]at{{0, "FF"}, {10 * time.Second, "S"}},
			false, []probe{{10 * time.Second, [2]int{0, 1}}}},
		{"expired failures no longer count toward the rate", timed,
			[]at{{0, "FF"}, {10 * time.Second, "SS"}, {10 * time.Second, "F"}},
			false, []probe{{10 * time.Second, [2]int{1, 3}}}},
		{"a Period not a multiple of Buckets: buckets of Period/Buckets truncated, a call Period old is out",
			Window{Period: 10 * time.Second, Buckets: 3, MinCalls: 99, FailureRate: 1},
			[]at{{0, "F"}},
			false, []probe{{3*3333333333 - 1, [2]int{1, 1}}, {3 * 3333333333, [2]int{0, 0}}, {10 * time.Second, [2]int{0, 0}}}},
		{"one bucket", Window{Period: time.Second, Buckets: 1, MinCalls: 2, FailureRate: 1},
			[]at{{0, "F"}, {time.Second, "F"}},
			false, []probe{{time.Second, [2]int{1, 1}}, {2 * time.Second, [2]int{0, 0}}}},
		{"MaxWindowBuckets buckets", Window{Period: MaxWindowBuckets * time.Second, Buckets: MaxWindowBuckets, MinCalls: 99, FailureRate: 1},
			[]at{{0, "F"}, {(MaxWindowBuckets - 1) * time.Second, "F"}},
			false, []probe{{MaxWindowBuckets*time.Second - 1, [2]int{2, 2}}, {MaxWindowBuckets * time.Second, [2]int{1, 1}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Given a closed circuit with a time window
			c := newCircuit(windowSettings(tt.w), 7)
			// When the outcomes arrive at their times
			var fx []Effect
			for _, s := range tt.steps {
				var more []Effect
				c, more = feed(t, c, t0.Add(s.d), s.outcome)
				fx = append(fx, more...)
			}
			// Then it opens for failure_rate or stays closed
			if tt.opens {
				require.Equal(t, Open, c.State)
				require.Equal(t, []Reason{ReasonFailureRate}, reasons(fx))
			} else {
				require.Equal(t, Closed, c.State)
				require.Empty(t, fx)
			}
			// And the window holds exactly the live outcomes
			for _, p := range tt.probes {
				require.Equal(t, p.want, rateOf(c, t0.Add(p.d)), "{fails, calls} at t0+%v", p.d)
			}
		})
	}
}

func TestWindowIsClearedWhenTheCircuitCloses(t *testing.T) {
	windows := map[string]Window{"count": {Size: 8, MinCalls: 2, FailureRate: 0.75}, "time": timed}
	for name, w := range windows {
		for _, how := range []string{"probe", "force-close", "reset"} {
			t.Run(name+"/"+how, func(t *testing.T) {
				// Given a window holding failures, tripped (or not, for the manual operations)
				c := newCircuit(windowSettings(w), 7)
				c, _ = feed(t, c, t0, "SF")
				if how == "probe" {
					c, _ = feed(t, c, t0, "FF")
					require.Equal(t, Open, c.State)
					c, _ = step(c, Event{Kind: TimerFired, Gen: c.Gen}, c.RetryAt)
					c, _ = step(c, Event{Kind: Admit}, c.RetryAt)
				}
				require.NotZero(t, rateOf(c, t0)[1], "the window must hold outcomes before the close")
				// When the circuit closes
				switch how {
				case "probe":
					c, _ = step(c, Event{Kind: Succeeded, Gen: c.Gen}, t0)
				case "force-close":
					c, _ = step(c, Event{Kind: ForceClose}, t0)
				case "reset":
					c, _ = step(c, Event{Kind: Reset}, t0)
				}
				// Then the window is empty and a single failure does not trip it
				require.Equal(t, Closed, c.State)
				require.Equal(t, [2]int{0, 0}, rateOf(c, t0))
				c, fx := feed(t, c, t0, "F")
				require.Empty(t, fx)
				require.Equal(t, [2]int{1, 1}, rateOf(c, t0))
			})
		}
	}
}
