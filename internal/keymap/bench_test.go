package keymap_test

import (
	"sync/atomic"
	"testing"

	"github.com/tripwire-go/tripwire/internal/keymap"
)

// BenchmarkLoad reads one key of a map of 100k; its floor is the same read
// of an immutable Go map behind an atomic pointer (what the registry's
// table was), in the same run.
func BenchmarkLoad(b *testing.B) {
	keys := keyNames(100000)
	b.Run("keymap", func(b *testing.B) {
		m := new(keymap.Map[int])
		for _, k := range keys {
			m.Insert(k, new(int))
		}
		b.ReportAllocs()
		k := keys[777]
		for b.Loop() {
			if _, ok := m.Load(k); !ok {
				b.Fatal("missing")
			}
		}
	})
	b.Run("gomap", func(b *testing.B) {
		g := map[string]*int{}
		for _, k := range keys {
			g[k] = new(int)
		}
		var p atomic.Pointer[map[string]*int]
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

// BenchmarkInsert is the cost of one insert into a map that grows to n.
func BenchmarkInsert(b *testing.B) {
	for _, n := range []int{1000, 1000000} {
		keys := keyNames(n)
		b.Run(itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m := new(keymap.Map[int])
				for _, k := range keys {
					m.Insert(k, nil)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/key")
		})
	}
}

func itoa(n int) string {
	if n >= 1000000 {
		return "1M"
	}
	return "1k"
}
