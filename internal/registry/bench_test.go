package registry_test

import (
	"sync/atomic"
	"testing"

	"github.com/tripwire-go/tripwire/internal/registry"
)

// BenchmarkLoad reads one key of a table of 100k; its floor is the same read
// of an immutable Go map behind an atomic pointer (what the table was
// before it had O(1) writes), in the same run.
func BenchmarkLoad(b *testing.B) {
	keys := keyNames(100000)
	b.Run("table", func(b *testing.B) {
		var tab registry.Table
		for _, k := range keys {
			tab.Insert(entry(k))
		}
		b.ReportAllocs()
		k := keys[777]
		for b.Loop() {
			if _, ok := tab.Load(k); !ok {
				b.Fatal("missing")
			}
		}
	})
	b.Run("gomap", func(b *testing.B) {
		g := map[string]*registry.Entry{}
		for _, k := range keys {
			g[k] = entry(k)
		}
		var p atomic.Pointer[map[string]*registry.Entry]
		p.Store(&g)
		b.ReportAllocs()
		k := keys[777]
		for b.Loop() {
			if _, ok := (*p.Load())[k]; !ok {
				b.Fatal("missing")
			}
		}
	})
}

// BenchmarkInsert is the cost of one insert into a table that grows to n
// keys (ns/key), at 1k and at 1M.
func BenchmarkInsert(b *testing.B) {
	for _, n := range []int{1000, 1000000} {
		keys := keyNames(n)
		entries := make([]*registry.Entry, n)
		for i, k := range keys {
			entries[i] = entry(k)
		}
		b.Run(map[int]string{1000: "1k", 1000000: "1M"}[n], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var tab registry.Table
				for _, e := range entries {
					tab.Insert(e)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/key")
		})
	}
}
