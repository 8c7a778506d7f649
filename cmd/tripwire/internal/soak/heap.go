package soak

import (
	"fmt"
	"runtime"
)

// liveHeap is the live heap after a full collection.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// perKey is the heap each of keys keys adds to a run: the live heap total
// less base, the heap the run had before its first key (its actor system,
// registry and own records), shared out over the keys. Without the base a
// run of one key would count the whole registry as that key's. keys < 1
// has no share: 0.
func perKey(total, base int64, keys int) int64 {
	if keys < 1 {
		return 0
	}
	return (total - base) / int64(keys)
}

// bytesText writes a size for a person: "3.5 MB", "72 KB", "900 B".
func bytesText(n int64) string {
	switch a := max(n, -n); {
	case a >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case a >= 1e4:
		return fmt.Sprintf("%.0f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
