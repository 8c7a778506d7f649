package dashboard

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/tripwire-go/tripwire/state"
)

// order is the keys of rows, in order.
func order(rows []Row) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Key
	}
	return out
}

func TestTheListIsWorstFirstFromTheBreakersOwnStatistics(t *testing.T) {
	// Given six keys: k03 forced open, k05 forced closed, k04 with failures
	// in its window but closed, k06 tripped by failures, k01 and k02 busy
	// and healthy
	f := serve(t, keys("k", 6))
	f.call(t, "k01", 4)
	f.call(t, "k02", 2)
	f.dep.set("k04", true)
	f.call(t, "k04", 1)
	f.dep.set("k06", true)
	f.call(t, "k06", 3)
	if err := f.reg.ForceOpen(context.Background(), "k03"); err != nil {
		t.Fatal(err)
	}
	if err := f.reg.ForceClose(context.Background(), "k05"); err != nil {
		t.Fatal(err)
	}
	// When the list is read
	var l List
	f.getJSON(t, "/api/breakers", &l)
	// Then the keys are open, forced, failing, healthy, each kind by key
	if got, want := order(l.Rows), []string{"k03", "k06", "k05", "k04", "k01", "k02"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	sev := map[string]Severity{}
	for _, r := range l.Rows {
		sev[r.Key] = r.Severity
	}
	if sev["k03"] != Open || sev["k06"] != Open || sev["k05"] != Forced || sev["k04"] != Failing || sev["k01"] != Healthy {
		t.Fatalf("severities %v", sev)
	}
	// and each row has the breaker's own figures
	k01, k04, k03 := l.Rows[4], l.Rows[3], l.Rows[0]
	if k01.Recent.Successes != 4 || k01.Total.Calls != 4 || k01.Latency.Calls != 4 || k01.CallsPerSecond <= 0 || k01.ErrorPercent != 0 {
		t.Errorf("k01: %+v", k01)
	}
	if k04.Recent.Failures != 1 || k04.ErrorPercent != 100 || k04.Failures != 1 {
		t.Errorf("k04: %+v", k04)
	}
	if k03.Forced != state.ForcedOpen || k03.Reason != state.ReasonForcedOpen.String() || k03.Since.IsZero() || !k03.RetryAt.IsZero() {
		t.Errorf("k03: %+v", k03)
	}
	if l.Rows[1].Reason != state.ReasonThreshold.String() || l.Rows[1].RetryAt.IsZero() || l.Rows[1].RetryInMs <= 0 {
		t.Errorf("k06: %+v", l.Rows[1])
	}
	// and the summary counts them
	s := l.Summary
	if s.Keys != 6 || s.Open != 2 || s.HalfOpen != 0 || s.Closed != 4 || s.Forced != 2 || s.Failing != 1 || l.Matched != 6 || s.Census.IsZero() {
		t.Errorf("summary %+v, matched %d", s, l.Matched)
	}
}

func TestTheListFiltersByPrefixAndStateAndLimits(t *testing.T) {
	// Given a01..a05 and b01..b05, a02 and b03 forced open
	f := serve(t, append(keys("a", 5), keys("b", 5)...))
	for _, k := range []string{"a02", "b03"} {
		if err := f.reg.ForceOpen(context.Background(), k); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		query   string
		want    []string
		matched int
	}{
		{"", []string{"a02", "b03", "a01", "a03", "a04", "a05", "b01", "b02", "b04", "b05"}, 10},
		{"?prefix=b", []string{"b03", "b01", "b02", "b04", "b05"}, 5},
		{"?prefix=b&limit=2", []string{"b03", "b01"}, 5},
		{"?state=open", []string{"a02", "b03"}, 2},
		{"?state=closed&prefix=a&limit=3", []string{"a01", "a03", "a04"}, 4},
		{"?state=half_open,open&prefix=a", []string{"a02"}, 1},
		{"?prefix=c", []string{}, 0},
		{"?prefix=a03", []string{"a03"}, 1},
	} {
		// When the list is read with the query
		var l List
		f.getJSON(t, "/api/breakers"+tc.query, &l)
		// Then it has the keys that match, worst first, up to the limit, and counts all that match
		if got := order(l.Rows); !slices.Equal(got, tc.want) || l.Matched != tc.matched {
			t.Errorf("%q: %v (matched %d), want %v (%d)", tc.query, got, l.Matched, tc.want, tc.matched)
		}
		if l.Summary.Keys != 10 || l.Summary.Open != 2 {
			t.Errorf("%q: summary %+v", tc.query, l.Summary)
		}
	}
	// and a query it cannot read is a 400 that says why
	for _, q := range []string{"?limit=0", "?limit=1001", "?limit=x", "?state=ajar", "?prefix=" + strings.Repeat("p", 300)} {
		status, _, body := f.do(t, "GET", "/api/breakers"+q)
		if status != 400 || !strings.Contains(string(body), "bad query") {
			t.Errorf("%.30s: %d %s", q, status, body)
		}
	}
}

func TestAKeyFoundWorseByALookIsInKeyOrderAmongItsKind(t *testing.T) {
	// Given k02 failing, seen so by a look, and k01 and k03 healthy
	f := serve(t, keys("k", 3))
	f.dep.set("k02", true)
	f.call(t, "k02", 1)
	var l List
	f.getJSON(t, "/api/breakers", &l)
	if got, want := order(l.Rows), []string{"k02", "k01", "k03"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	// When k01 fails too, without a transition
	f.dep.set("k01", true)
	f.call(t, "k01", 1)
	// Then the next look shows the two failing keys by key
	f.getJSON(t, "/api/breakers", &l)
	if got, want := order(l.Rows), []string{"k01", "k02", "k03"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}
