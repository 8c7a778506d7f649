package dashboard

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// counting is a registry that counts what the dashboard asks of it.
type counting struct {
	registry
	asks     atomic.Int64 // Snapshot: one breaker each
	censuses atomic.Int64 // Snapshots calls
	listed   atomic.Int64 // snapshots Snapshots reported
}

func (c *counting) Snapshot(ctx context.Context, key string) (tripwire.Snapshot, error) {
	c.asks.Add(1)
	return c.registry.Snapshot(ctx, key)
}

func (c *counting) Snapshots(ctx context.Context, f tripwire.Filter, fn func(tripwire.Snapshot) bool) error {
	c.censuses.Add(1)
	return c.registry.Snapshots(ctx, f, func(s tripwire.Snapshot) bool {
		c.listed.Add(1)
		return fn(s)
	})
}

// hundredThousand registers 100,000 keys, k000000 to k099999, and forces
// 20 of them open; it returns the registry, how to name key i, and the
// open keys in key order.
func hundredThousand(tb testing.TB) (*tripwire.Registry, func(int) string, []string) {
	tb.Helper()
	const n = 100_000
	reg := testkit.Start(tb, testkit.NewSystem(tb))
	ok := tripwire.Func(func(_ context.Context, msg any) (any, error) { return msg, nil })
	name := func(i int) string { return fmt.Sprintf("k%06d", i) }
	start := time.Now()
	for i := range n {
		testkit.Register(tb, reg, name(i), ok, quiet)
	}
	tb.Logf("registered %d keys in %v", n, time.Since(start))
	var open []string
	for i := 500; i < n; i += n / 20 {
		if err := reg.ForceOpen(context.Background(), name(i)); err != nil {
			tb.Fatal(err)
		}
		open = append(open, name(i))
	}
	return reg, name, open
}

func TestAtAHundredThousandKeysATickAsksOnlyTheKeysShown(t *testing.T) {
	// Given 100,000 keys, 20 of them open, and a page following the worst 100
	const n = 100_000
	reg, name, open := hundredThousand(t)
	c := &counting{registry: reg}
	h, err := newHandler(c, WithRefresh(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	rec, stop := record(t, h, "")
	defer stop()
	var first Frame
	eventually(t, "the first rows", func() bool {
		rows := named(rec.events(), "rows")
		if len(rows) > 0 {
			rows[0].decodeInto(t, &first)
		}
		return len(rows) > 0
	})
	t.Logf("first census: %d breakers in %.0f ms", c.listed.Load(), first.Summary.CensusMs)

	// Then the page has the open keys first, then the healthy ones in key order, and counts them all
	want := append(slices.Clone(open), name(0), name(1))
	if got := order(first.Rows); len(got) != defaultLimit || !slices.Equal(got[:22], want) {
		t.Fatalf("first rows %v...", got[:22])
	}
	if s := first.Summary; s.Keys != n || s.Open != 20 || s.Forced != 20 || s.Closed != n-20 || first.Matched != n {
		t.Fatalf("summary %+v, matched %d", s, first.Matched)
	}

	// When 25 refreshes go by
	asks, ticks, censuses := c.asks.Load(), h.board.ticks.Load(), c.censuses.Load()
	start := time.Now()
	eventually(t, "25 refreshes", func() bool { return h.board.ticks.Load() >= ticks+25 })
	took := time.Since(start)
	perTick := float64(c.asks.Load()-asks) / float64(h.board.ticks.Load()-ticks)
	t.Logf("a refresh asks %.0f breakers of %d (%v for 25 refreshes of 20 ms)", perTick, n, took)
	// Then each asks the 100 breakers shown, not the 100,000 (counted, not
	// timed: BenchmarkTickAtAHundredThousandKeys times it), and no census
	// ran again: the next waits 50 times the first's time
	if perTick < 0.9*defaultLimit || perTick > 1.5*defaultLimit {
		t.Errorf("a refresh asks %.0f breakers to show %d", perTick, defaultLimit)
	}
	if again := c.censuses.Load() - censuses; again > 0 && took < censusShare*time.Duration(first.Summary.CensusMs*float64(time.Millisecond)) {
		t.Errorf("%d more censuses within %v: it should wait 50 times its %.0f ms", again, took, first.Summary.CensusMs)
	}
}

// BenchmarkTickAtAHundredThousandKeys times one refresh of a page showing
// the worst 100 of 100,000 keys (20 open): picking the keys and asking
// their breakers. It reports the breakers a refresh asks (asks/op).
func BenchmarkTickAtAHundredThousandKeys(b *testing.B) {
	reg, _, _ := hundredThousand(b)
	c := &counting{registry: reg}
	h, err := newHandler(c, WithRefresh(time.Minute)) // its own ticks do not come into it
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	h.board.join(filter{limit: defaultLimit})
	if err := h.board.want(b.Context(), h.done); err != nil { // the first census
		b.Fatal(err)
	}
	asks := c.asks.Load()
	for b.Loop() {
		h.board.tick()
	}
	b.ReportMetric(float64(c.asks.Load()-asks)/float64(b.N), "asks/op")
}
