package load

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/test/chaos"
)

// healthyReport is a report that breaks no invariant of cfg.
func healthyReport(cfg config) report {
	var rep report
	rep.calls.started = 10
	rep.calls.answers[okAnswer] = 6
	rep.calls.answers[open] = 4
	rep.perKey = []counts{{okAnswer: 2, open: 4}, {okAnswer: 4}}
	rep.scripts = chaos.Counts{Calls: 8}
	rep.crash = chaos.CrashReport{Crashes: 3}
	rep.samples, rep.peakTarget, rep.maxWorkers = 100, 5, 5+workerSlack(cfg)
	return rep
}

func TestViolationsCatchEachBrokenInvariant(t *testing.T) {
	cfg := config{callers: 4, askers: 1, mustSee: []outcome{okAnswer, open}}
	cases := []struct {
		name  string
		spoil func(r *report)
		want  string
	}{
		{"missing answer", func(r *report) { r.calls.started++ }, "11 calls started, 10 answered"},
		{"stuck caller", func(r *report) { r.stuck = []int64{42} }, "stuck [42]"},
		{"duplicate", func(r *report) { r.calls.dups = 1 }, "1 duplicated answers"},
		{"crossed", func(r *report) { r.calls.crossed = 1 }, "1 answers to another call"},
		{"late", func(r *report) { r.unexcused = []lateAnswer{{outcome: timeout}} }, "more than 50ms after their deadline"},
		{"per-key mismatch", func(r *report) { r.perKey[1][okAnswer]-- }, "per-key tallies"},
		{"unexpected error", func(r *report) {
			r.calls.answers[open]--
			r.calls.answers[other]++
			r.perKey[0][open]--
			r.perKey[0][other]++
		}, "unexpected answers"},
		{"phantom ok", func(r *report) { r.scripts.Calls = 5 }, "callers got 6 ok"},
		{"not exercised", func(r *report) {
			r.calls.answers[open], r.calls.answers[restarted] = 0, 4
			r.perKey[0][open], r.perKey[0][restarted] = 0, 4
		}, "no open answer"},
		{"no crash", func(r *report) { r.crash.Crashes = 0 }, "no breaker crashed"},
		{"too many workers", func(r *report) { r.maxWorkers++ }, "Workers() reached"},
		{"never sampled", func(r *report) { r.samples = 0 }, "Workers() reached"},
	}
	// Given a healthy report, Then it has no violation
	if v := violations(cfg, healthyReport(cfg)); len(v) != 0 {
		t.Fatalf("healthy report: %v", v)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Given a report that breaks one invariant
			rep := healthyReport(cfg)
			c.spoil(&rep)
			// When it is checked, Then exactly that violation is reported
			v := violations(cfg, rep)
			if len(v) != 1 || !strings.Contains(v[0], c.want) {
				t.Fatalf("violations %q, want one containing %q", v, c.want)
			}
		})
	}
}

func TestLateAnswerIsExcusedOnlyByOverlappingStalls(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	// Given an answer 150 ms after its deadline: 100 ms beyond lateSlack
	late := lateAnswer{outcome: timeout, deadline: at(0), end: at(150)}
	cases := []struct {
		name   string
		stalls []span
		want   bool
	}{
		{"no stall", nil, false},
		{"stall before the deadline", []span{{at(-300), at(0)}}, false},
		{"stall after the answer", []span{{at(150), at(400)}}, false},
		{"99 ms of stall inside", []span{{at(10), at(109)}}, false},
		{"100 ms of stall inside", []span{{at(10), at(110)}}, true},
		{"two stalls adding up", []span{{at(0), at(60)}, {at(100), at(140)}}, true},
		{"a stall overlapping the deadline", []span{{at(-50), at(100)}}, true},
	}
	for _, c := range cases {
		// When the stalls are weighed, Then only enough overlap excuses it
		if got := late.excused(c.stalls); got != c.want {
			t.Errorf("%s: excused %v, want %v", c.name, got, c.want)
		}
	}
}

func TestAnsweredClassifiesAndTimes(t *testing.T) {
	var c callerTally
	var key [nOutcomes]atomic.Int64
	begin := time.Unix(0, 0)
	// Given answers of each kind, one of them 80 ms late and one crossed
	c.answered(&key, nil, begin, begin.Add(time.Millisecond), 30*time.Millisecond, true)
	c.answered(&key, errors.Join(errors.New("wrapped"), tripwire.ErrOpen), begin, begin, 30*time.Millisecond, true)
	c.answered(&key, tripwire.ErrTimeout, begin, begin.Add(110*time.Millisecond), 30*time.Millisecond, true)
	c.answered(&key, nil, begin, begin, 30*time.Millisecond, false)
	c.answered(&key, errors.New("surprise"), begin, begin, 30*time.Millisecond, true)
	// Then the tallies, per caller and per key, say so
	want := counts{okAnswer: 2, open: 1, timeout: 1, other: 1}
	if c.answers != want || loadAll(&key) != want {
		t.Fatalf("caller %v, key %v, want %v", c.answers, loadAll(&key), want)
	}
	if c.crossed != 1 || len(c.lates) != 1 || c.maxOver != 80*time.Millisecond || len(c.unexpects) != 1 {
		t.Fatalf("crossed %d, lates %v, maxOver %v, unexpects %v", c.crossed, c.lates, c.maxOver, c.unexpects)
	}
}

func loadAll(a *[nOutcomes]atomic.Int64) counts {
	var c counts
	for i := range a {
		c[i] = a[i].Load()
	}
	return c
}

func TestAskerDetectsDuplicateCrossedAndMissingReplies(t *testing.T) {
	// Given an asker with three requests in flight on key "a"
	h := &harness{keys: []string{"a", "b"}, perKey: make([][nOutcomes]atomic.Int64, 2)}
	a := newAsker(h, 0)
	now := time.Now()
	for id := int64(1); id <= 3; id++ {
		a.pending[id] = sent{key: 0, start: now}
	}
	// When request 1 is answered twice, request 2 is answered as if from key
	// "b" with another call's value, and request 3 never
	a.reply(&tripwire.Reply{Key: "a", Request: int64(1), Value: int64(1)})
	a.reply(&tripwire.Reply{Key: "a", Request: int64(1), Value: int64(1)})
	a.reply(&tripwire.Reply{Key: "b", Request: int64(2), Value: int64(7)})
	// Then the tally shows one duplicate, two crossings, one request still pending
	if a.tally.dups != 1 || a.tally.crossed != 2 || len(a.pending) != 1 {
		t.Fatalf("dups %d, crossed %d, pending %v", a.tally.dups, a.tally.crossed, a.pending)
	}
	if got := loadAll(&h.perKey[0]); got[okAnswer] != 2 {
		t.Fatalf("per-key tally %v, want 2 ok on key a", got)
	}
}
