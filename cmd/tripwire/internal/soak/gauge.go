package soak

import "sync/atomic"

// maxGauge is a running maximum.
type maxGauge struct{ v atomic.Int64 }

func (g *maxGauge) observe(n int64) {
	for {
		cur := g.v.Load()
		if n <= cur || g.v.CompareAndSwap(cur, n) {
			return
		}
	}
}

func (g *maxGauge) load() int64 { return g.v.Load() }
