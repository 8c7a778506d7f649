package dashboard

import (
	"net/http"
	"strings"
	"testing"
)

func TestMetricsShowTheRegistrysCallsAndStates(t *testing.T) {
	// Given a running demo with dep-01 forced open
	f := serve(t, quietConfig(), true)
	if err := f.reg.ForceOpen("dep-01"); err != nil {
		t.Fatal(err)
	}
	// When /metrics is scraped, until the callers have had answers of both kinds
	want := []string{
		"# TYPE tripwire_calls_total counter",
		`tripwire_key="dep-01",tripwire_outcome="rejected"`,
		`tripwire_key="dep-02",tripwire_outcome="success"`,
		"# TYPE tripwire_call_duration_seconds histogram",
		`tripwire_key="dep-01",tripwire_state="open"} 1`,
		`tripwire_key="dep-02",tripwire_state="closed"} 1`,
		"# TYPE tripwire_transitions_total counter",
		`tripwire_key="dep-01",tripwire_to="open"} 1`,
	}
	var missing []string
	scrape := func() bool {
		status, hdr, body := f.do(t, "GET", "/metrics")
		if status != http.StatusOK || !strings.HasPrefix(hdr.Get("Content-Type"), "text/plain") {
			t.Fatalf("%d %s", status, hdr.Get("Content-Type"))
		}
		missing = missing[:0]
		for _, w := range want {
			if !strings.Contains(string(body), w) {
				missing = append(missing, w)
			}
		}
		return len(missing) == 0
	}
	// Then it has Tripwire's metrics in Prometheus format: calls by outcome,
	// the state gauge and the forced transition
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("missing from the last scrape: %q", missing)
		}
	})
	eventually(t, "every Tripwire metric in the scrape", scrape)
}
