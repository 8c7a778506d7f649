package dashboard

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tripwire-go/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

func TestFromSoakAndNewRefuseNil(t *testing.T) {
	// Given no soak run, and a driver that is a nil pointer
	var drv *demo.Driver
	reg := testkit.Start(t, testkit.NewSystem(t))
	m, err := NewMetrics()
	if err != nil {
		t.Fatal(err)
	}
	// When a source or a handler is made of them
	src, err := FromSoak(nil)
	h, herr := New(reg, drv, m)
	// Then both are refused
	if !errors.Is(err, ErrNilArgument) || src != nil || !errors.Is(herr, ErrNilArgument) || h != nil {
		t.Fatalf("FromSoak: %v %v; New: %v %v", src, err, h, herr)
	}
}

func TestSoakRowsAppearAndTheirCountsGrow(t *testing.T) {
	// Given a dashboard over a soak of four keys
	f := serveSoak(t, quietSoak(), nil)
	calls := func() (rows []Breaker, n float64) {
		status, hdr, body := f.do(t, "GET", "/api/breakers")
		if status != http.StatusOK || !isJSON(hdr) {
			t.Fatalf("%d %s", status, hdr.Get("Content-Type"))
		}
		decode(t, body, &rows)
		for _, r := range rows {
			n += float64(r.Calls)
		}
		return rows, n
	}
	// When the list is read while the load runs
	var first float64
	eventually(t, "the soak's callers have answers", func() bool { _, first = calls(); return first > 0 })
	// Then it has the soak's keys, in order, whose counts keep growing and
	// add up, with the latency of the calls that went through
	eventually(t, "the counts grow", func() bool { _, n := calls(); return n > first })
	var rows []Breaker
	eventually(t, "a key has latencies and target hits", func() bool {
		rows, _ = calls()
		return slices.ContainsFunc(rows, func(b Breaker) bool { return b.P50Ms > 0 && b.P99Ms >= b.P50Ms && b.DependencyHits > 0 })
	})
	var keys []string
	for _, r := range rows {
		keys = append(keys, r.Key)
		if r.OK+r.Failed+r.Timeouts+r.Rejected+r.Restarted > r.Calls || r.Error != "" {
			t.Errorf("%s: counts do not add up, or an error: %+v", r.Key, r)
		}
	}
	if !slices.Equal(keys, f.live.Keys()) || len(keys) != 4 {
		t.Fatalf("keys %v, the soak's %v", keys, f.live.Keys())
	}
	// And one key reads the same way
	status, _, body := f.do(t, "GET", "/api/breakers/k0003")
	var b Breaker
	decode(t, body, &b)
	if status != http.StatusOK || b.Key != "k0003" {
		t.Fatalf("%d %+v", status, b)
	}
}

func TestSoakCrashButtonCrashesThroughTheRun(t *testing.T) {
	// Given a dashboard over a soak that crashes no breaker by itself, which
	// will try another crash once its load is over
	var lateStatus int
	var lateBody string
	f := serveSoak(t, quietSoak(), func(f *fixture) { lateStatus, lateBody = post(f, "/api/breakers/k0001/crash") })
	// When k0001's crash button is pressed while the load runs
	status, hdr, body := f.do(t, "POST", "/api/breakers/k0001/crash")
	// Then the answer is the key's row after it: restarted once
	var b Breaker
	decode(t, body, &b)
	if status != http.StatusOK || !isJSON(hdr) || b.Key != "k0001" || b.Restarts != 1 || b.State != "closed" {
		t.Fatalf("%d %+v", status, b)
	}
	// And force-open, force-close and reset work on the soak's registry too
	for _, tc := range []struct{ action, state string }{{"force-open", "open"}, {"force-close", "closed"}, {"reset", "closed"}} {
		status, _, body := f.do(t, "POST", "/api/breakers/k0002/"+tc.action)
		decode(t, body, &b)
		if snap, err := f.reg.Snapshot("k0002"); status != http.StatusOK || b.State != tc.state || err != nil || snap.State.String() != tc.state {
			t.Fatalf("%s: %d %+v; registry %+v %v", tc.action, status, b, snap, err)
		}
	}
	// And the run counted the crash as one of its own: one crash, one
	// restart, every invariant kept
	rep := f.finish(t)
	if rep.Crash.Crashes != 1 || rep.Crash.ByKey["k0001"] != 1 || rep.Restarts != 1 {
		t.Fatalf("crashes %+v, restarts %d", rep.Crash, rep.Restarts)
	}
	if v := rep.Violations(quietSoak()); len(v) != 0 {
		t.Fatalf("violations: %q", v)
	}
	// And a crash once the load was over was refused: 503, the run is over
	if lateStatus != http.StatusServiceUnavailable || !strings.Contains(lateBody, "load is over") {
		t.Fatalf("crash after the load: %d %s", lateStatus, lateBody)
	}
}

func TestSoakMetricsAndEventsFollowTheRun(t *testing.T) {
	// Given a dashboard over a soak, and a page following its events
	f := serveSoak(t, quietSoak(), nil)
	e := f.follow(t)
	var rows []Breaker
	if err := json.Unmarshal([]byte(e.next(t, "breakers").data), &rows); err != nil || len(rows) != 4 || rows[0].Key != "k0000" {
		t.Fatalf("%v %+v", err, rows)
	}
	// When a breaker is forced open
	if status, _, _ := f.do(t, "POST", "/api/breakers/k0003/force-open"); status != http.StatusOK {
		t.Fatal(status)
	}
	// Then the page is told
	for {
		var tr Transition
		if err := json.Unmarshal([]byte(e.next(t, "transition").data), &tr); err != nil {
			t.Fatal(err)
		}
		if tr.Key == "k0003" && tr.Reason == "forced_open" {
			break
		}
	}
	// and /metrics has the soak's calls and states
	eventually(t, "the soak's metrics", func() bool {
		_, _, body := f.do(t, "GET", "/metrics")
		return strings.Contains(string(body), `tripwire_key="k0000",tripwire_outcome="success"`) &&
			strings.Contains(string(body), `tripwire_key="k0003",tripwire_state="open"} 1`)
	})
	// When the run ends
	f.cancel()
	// Then the page gets the final rows, k0003 still open, and "end"
	var last []Breaker
	for {
		ev := e.nextOf(t, "breakers", "end")
		if ev.name == "breakers" {
			last = nil
			if err := json.Unmarshal([]byte(ev.data), &last); err != nil {
				t.Fatal(err)
			}
		}
		if ev.name == "end" {
			break
		}
	}
	e.waitEnd(t)
	if len(last) != 4 || last[3].State != "open" || last[3].Error != "" {
		t.Fatalf("last rows %+v", last)
	}
	// and the run, with the page gone, left no goroutine and kept every invariant
	if v := f.finish(t).Violations(quietSoak()); len(v) != 0 {
		t.Fatalf("violations: %q", v)
	}
}
