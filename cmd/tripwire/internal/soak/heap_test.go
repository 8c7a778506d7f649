package soak

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestPerKeyLeavesTheBaselineOut(t *testing.T) {
	const base = 2_929_920 // a registry and its actor system, before any key
	cases := []struct {
		total int64
		keys  int
		want  int64
	}{
		{base + 2944, 1, 2944},         // one key: its own 2944 B, not the registry's 2.9 MB
		{base + 16*1800, 16, 1800},     // many keys: each one's share of what they added
		{base, 4, 0},                   // keys that added nothing
		{base - 4000, 4, -1000},        // part of the base freed meanwhile: said, not hidden
		{base + 1000, 0, 0},            // no key: no share
		{3*base + 1000, -1, 0},         // nor for a count that is no count
		{base + 1_000_000, 1000, 1000}, // a thousand keys
	}
	for _, c := range cases {
		// Given the heap with the keys and the baseline before them, When it is shared out
		got := perKey(c.total, base, c.keys)
		// Then each key has what the keys added, without the baseline
		if got != c.want {
			t.Errorf("perKey(%d, %d, %d) = %d, want %d", c.total, base, c.keys, got, c.want)
		}
	}
}

func TestSummarySaysWhatTheHeapPerKeyIsOver(t *testing.T) {
	// Given a run of one key over a baseline of 2.9 MB, which then added 57 KB
	rep := Report{HeapBase: 2_929_920, HeapPerKey: 2944, HeapGrowth: 57_328}
	// When it is summarized
	got := heapLine(rep.Summary(Defaults()))
	// Then the heap line gives the key's own figure, the baseline it is
	// over, and what the run added, not shared out per key
	for _, want := range []string{" 2944 B registered (", "over a baseline of 2.9 MB with no key (", "; the run then added 57 KB ("} {
		if !strings.Contains(got, want) {
			t.Errorf("heap line %q does not say %q", got, want)
		}
	}
}

func TestBytesTextIsForAPerson(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 900: "900 B", 9999: "9999 B", 57_328: "57 KB", 2_929_920: "2.9 MB", -720_510: "-721 KB", -3_500_000: "-3.5 MB"} {
		if got := bytesText(n); got != want {
			t.Errorf("bytesText(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestAOneKeyRunsHeapPerKeyIsTheKeysAlone(t *testing.T) {
	// Given a short run of one key
	cfg := Defaults()
	cfg.Callers, cfg.Askers, cfg.Keys, cfg.Duration = 4, 1, 1, 200*time.Millisecond
	// When it runs
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	// Then its heap per key is one key's breaker, script and target (a few
	// KB), not the registry and actor system it runs in (MBs), and the
	// report says what baseline it is over
	if rep.HeapPerKey >= 64<<10 {
		t.Errorf("heap per key %d B: more than a key's own", rep.HeapPerKey)
	}
	if l := heapLine(rep.Summary(cfg)); !strings.Contains(l, " MB with no key (") || strings.Contains(l, "baseline of 0.0 MB") {
		t.Errorf("heap line %q: no baseline", l)
	}
}

// heapLine is the heap line of a summary.
func heapLine(lines []string) string {
	for _, l := range lines {
		if strings.HasPrefix(l, "heap per key ") {
			return l
		}
	}
	return ""
}
