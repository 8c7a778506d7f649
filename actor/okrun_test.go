package actor

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// A key's statistics are the same whether its successes wait in a run
// before their bucket takes them, or each goes to its bucket at once, as
// every call did before runs (recordEach), whatever comes between them:
// failures and calls not measured, the callers' own counts, time moving
// across epochs and past the window, reports, and the window given back.
func TestARunOfSuccessesCountsAsEachSuccessWould(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var batched, each Cell
		now := time.Now()
		both := func(fn func(c *Cell)) { fn(&batched); fn(&each) }
		record := func(tl tally, d time.Duration, measured bool) {
			both(func(c *Cell) {
				s, w := c.window(now)
				if c == &each {
					recordEach(s, w, tl, now, d, measured, c)
				} else {
					s.record(w, tl, now, d, measured, c)
				}
			})
		}
		report := func(c *Cell) Stats { // as a snapshot reads them
			s := c.stats.Load()
			if s == nil {
				if !c.callerSeen() {
					return Stats{}
				}
				s = c.keyStats()
			}
			return s.report(now, c)
		}
		same := func(when string) { require.Equal(t, report(&each), report(&batched), when) }
		latency := rapid.SampledFrom([]time.Duration{0, 900 * time.Nanosecond, 3 * time.Microsecond,
			40 * time.Microsecond, 41 * time.Microsecond, 2 * time.Millisecond, 700 * time.Millisecond, 9 * time.Second})
		for i, n := 0, rapid.IntRange(1, 300).Draw(t, "ops"); i < n; i++ {
			switch op := rapid.IntRange(0, 9).Draw(t, "op"); {
			case op < 5:
				record(tSuccess, latency.Draw(t, "latency"), true)
			case op == 5:
				record(rapid.SampledFrom([]tally{tFailure, tTimeout, tIgnored, tCanceled}).Draw(t, "tally"),
					latency.Draw(t, "latency"), rapid.Bool().Draw(t, "measured"))
			case op == 6:
				both(func(c *Cell) { c.CountOverloaded() })
			case op == 7:
				now = now.Add(rapid.SampledFrom([]time.Duration{time.Millisecond, 400 * time.Millisecond,
					time.Second, 3 * time.Second, 2 * StatsWindow}).Draw(t, "advance"))
			case op == 8:
				same("a report")
			default:
				both(func(c *Cell) {
					if s := c.stats.Load(); s != nil && s.quiet(now, c) {
						s.drop(c)
					}
				})
			}
		}
		same("at the end")
	})
}

// recordEach is keyStats.record as it was before runs of successes: every
// call folds the callers' counts and goes to its bucket.
func recordEach(s *keyStats, w *statsWindow, t tally, now time.Time, d time.Duration, measured bool, c *Cell) {
	e := w.epoch(now)
	s.fold(w, e, c)
	b := s.bucket(w, e)
	if b.n[t] < ^uint32(0) {
		b.n[t]++
	} else {
		s.total[t]++
	}
	if !measured {
		return
	}
	if b.nLat < ^uint32(0) {
		b.lat.add(latBin(d))
		b.nLat++
	}
	b.max = max(b.max, d)
}

// A run takes the successes of one epoch whose latencies fall in at most
// okRunBins bins, and no other.
func TestARunTakesOneEpochsSuccessesInAFewBins(t *testing.T) {
	var r okRun
	for i := range okRunBins {
		require.True(t, r.add(3, time.Duration(1)<<(12+2*i)), "bin %d", i)
		require.True(t, r.add(3, time.Duration(1)<<(12+2*i)), "bin %d again", i)
	}
	require.False(t, r.add(3, time.Hour), "a fifth bin")
	require.False(t, r.add(4, time.Duration(1)<<12), "another epoch")
	require.EqualValues(t, 2*okRunBins, r.n)
	require.Equal(t, time.Duration(1)<<(12+2*(okRunBins-1)), r.max)
}

// The callers' counts that come after a run of successes spread over the
// epochs since the run's, as they did when every success folded them (not
// since the last count before the run): ten overloaded calls counted
// between two successes of one epoch are that epoch's, and stay in the
// window as long as it.
func TestCallersCountsAfterARunAreTheRunsEpochs(t *testing.T) {
	var c Cell
	t0 := time.Now()
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	s, w := c.window(at(0))
	s.record(w, tFailure, at(0), time.Millisecond, true, &c)             // a fold in epoch 1
	s.record(w, tSuccess, at(5*time.Second), time.Millisecond, true, &c) // a run in epoch 6
	for range 10 {
		c.CountOverloaded()
	}
	s.record(w, tSuccess, at(5*time.Second+time.Millisecond), time.Millisecond, true, &c)

	// Nine seconds later the window holds epochs 6 to 15: all ten are in it
	st := s.report(at(14*time.Second+500*time.Millisecond), &c)
	require.EqualValues(t, 10, st.Recent.Overloaded)
	require.Equal(t, Counts{Calls: 12, Successes: 2, Overloaded: 10}, st.Recent)
}
