package dashboard

import (
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

func TestFiguresAreRoundedToWhatAPageShows(t *testing.T) {
	for _, tc := range []struct{ x, want float64 }{
		{0, 0}, {1234.567, 1230}, {0.012345, 0.0123}, {99.95, 100}, {3, 3}, {-2.345, -2.35}, {123456789, 123000000},
	} {
		if got := round(tc.x, 3); got != tc.want {
			t.Errorf("round(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}

func TestAnOpenKeyKeepsItsLastLatencyMarkedStale(t *testing.T) {
	// Given a key whose window had calls of 2 ms, then none (open for longer than the window)
	last := latencyOf(state.Latency{Calls: 10, P50: 2 * time.Millisecond, P99: 3 * time.Millisecond})
	s := tripwire.Snapshot{Key: "k", State: state.Open, Since: t0}
	// When its row is made
	r := rowOf(s, last, t0.Add(time.Minute))
	// Then it shows the last figures, stale, and how long it has been open
	if r.Latency.Calls != 10 || r.Latency.P50Ms != 2 || !r.Latency.Stale || r.InStateMs != 60000 || r.Severity != Open {
		t.Fatalf("%+v", r)
	}
	// and a row that differs only in time counted on is the same row
	later := rowOf(s, last, t0.Add(2*time.Minute))
	if !r.same(later) || r.InStateMs == later.InStateMs {
		t.Fatalf("%+v vs %+v", r, later)
	}
}

func TestADiffSendsChangesAndRemovalsOnly(t *testing.T) {
	// Given a stream that sent a and b
	d := newDiff()
	a, b := Row{Key: "a", CallsPerSecond: 1}, Row{Key: "b"}
	d.first([]Row{a, b}, 2, Summary{Keys: 2})
	// When nothing changed but the time and the census
	a2 := a
	a2.InStateMs = 5
	if _, ok := d.next([]string{"a", "b"}, map[string]Row{"a": a2, "b": b}, 2, Summary{Keys: 2, CensusMs: 3}); ok {
		t.Fatal("a frame without a change")
	}
	// When a changes, b is no longer shown, c is, and a row is missing (no answer)
	a3, c := a, Row{Key: "c"}
	a3.CallsPerSecond = 2
	f, ok := d.next([]string{"a", "c", "x"}, map[string]Row{"a": a3, "c": c}, 3, Summary{Keys: 3})
	// Then the frame has a and c, removes b, and keeps x as the page has it
	if !ok || len(f.Rows) != 2 || f.Rows[0].Key != "a" || f.Rows[1].Key != "c" || len(f.Removed) != 1 || f.Removed[0] != "b" || f.Matched != 3 {
		t.Fatalf("%+v", f)
	}
}

func TestAQueryIsReadOrRefused(t *testing.T) {
	q := url.Values{"prefix": {"dep-"}, "state": {"open, half_open,open"}, "limit": {"7"}}
	f, err := filterOf(q)
	if err != nil || f.prefix != "dep-" || f.limit != 7 || len(f.states) != 2 || !f.admits(state.HalfOpen) || f.admits(state.Closed) {
		t.Fatalf("%+v %v", f, err)
	}
	if f, err := filterOf(url.Values{}); err != nil || f.limit != defaultLimit || !f.admits(state.Closed) {
		t.Fatalf("%+v %v", f, err)
	}
	// A parameter given twice is refused, not read in part
	for _, q := range []url.Values{{"state": {"open", "bogus"}}, {"limit": {"5", "7"}}, {"prefix": {"a", "b"}}} {
		if _, err := filterOf(q); !errors.Is(err, errBadQuery) {
			t.Errorf("%v: %v, want errBadQuery", q, err)
		}
	}
}

func TestASeverityIsItsNameInJSON(t *testing.T) {
	for s := Healthy; s <= Open; s++ {
		text, err := s.MarshalText()
		var back Severity
		if err != nil || back.UnmarshalText(text) != nil || back != s {
			t.Errorf("%v: %s %v -> %v", s, text, err, back)
		}
	}
	if _, err := Severity(9).MarshalText(); err == nil {
		t.Error("severity 9 marshals")
	}
	var s Severity
	if s.UnmarshalText([]byte("dire")) == nil {
		t.Error("dire unmarshals")
	}
}

func TestAFailingKeysSmallErrorShareIsNotShownAsNone(t *testing.T) {
	// Given a key with one failure in 2,500 calls in its window (0.04 %)
	s := tripwire.Snapshot{Key: "k", State: state.Closed, Since: t0}
	s.Stats.ErrorPercent = 0.04
	s.Stats.Recent = state.Counts{Calls: 2500, Successes: 2499, Failures: 1}
	// Then its row shows the share to three significant digits, not 0
	if r := rowOf(s, Latency{}, t0); r.ErrorPercent != 0.04 {
		t.Fatalf("error_percent %v, want 0.04 (severity %v)", r.ErrorPercent, r.Severity)
	}
}

func TestARowSaysWhetherItsWindowHadACallWithAVerdict(t *testing.T) {
	for _, tc := range []struct {
		name     string
		recent   state.Counts
		verdicts uint64
		percent  float64
	}{
		{"open, only rejections", state.Counts{Calls: 40, Rejected: 40}, 0, 0},
		{"open, a failed probe among them", state.Counts{Calls: 41, Rejected: 40, Failures: 1}, 1, 100},
		{"closed, all well", state.Counts{Calls: 9, Successes: 9}, 9, 0},
		{"closed, canceled and ignored only", state.Counts{Calls: 3, Canceled: 2, Ignored: 1}, 0, 0},
	} {
		// Given a snapshot whose window holds the counts, with the breaker's error percent
		s := tripwire.Snapshot{Key: "k", State: state.Open, Since: t0}
		s.Stats.Recent = tc.recent
		if v := tc.recent.Successes + tc.recent.Failures; v > 0 {
			s.Stats.ErrorPercent = 100 * float64(tc.recent.Failures) / float64(v)
		}
		// When its row is made
		r := rowOf(s, Latency{}, t0)
		// Then it counts the calls with a verdict, so that 0 % and no figure differ
		if r.Verdicts != tc.verdicts || r.ErrorPercent != tc.percent {
			t.Errorf("%s: verdicts %d, error %v%%; want %d, %v%%", tc.name, r.Verdicts, r.ErrorPercent, tc.verdicts, tc.percent)
		}
	}
}
