package registry_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"

	"github.com/tripwire-go/tripwire/internal/registry"
)

// TestTableAgreesWithAGoMap: any sequence of inserts and deletes leaves the
// table holding what a Go map given the same sequence holds, through growth
// and shrinking.
func TestTableAgreesWithAGoMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var tab registry.Table
		want := map[string]*registry.Entry{}
		keys := rapid.SampledFrom(keyNames(300))
		for range rapid.IntRange(0, 3000).Draw(t, "ops") {
			k := keys.Draw(t, "key")
			if rapid.Bool().Draw(t, "insert") {
				e := entry(k)
				_, taken := want[k]
				if got := tab.Insert(e); got == taken {
					t.Fatalf("Insert(%q) = %v with the key taken %v", k, got, taken)
				}
				if !taken {
					want[k] = e
				}
			} else {
				e, ok := tab.Delete(k)
				if w, had := want[k]; ok != had || e != w {
					t.Fatalf("Delete(%q) = %p, %v; want %p, %v", k, e, ok, w, had)
				}
				delete(want, k)
			}
			if tab.Len() != len(want) {
				t.Fatalf("Len %d, want %d", tab.Len(), len(want))
			}
		}
		for k, w := range want {
			if e, ok := tab.Load(k); !ok || e != w {
				t.Fatalf("Load(%q) = %p, %v; want %p", k, e, ok, w)
			}
		}
		seen := map[string]bool{}
		tab.Range(func(e *registry.Entry) bool {
			if seen[e.Key] || want[e.Key] != e {
				t.Fatalf("Range gave %q twice or the wrong entry", e.Key)
			}
			seen[e.Key] = true
			return true
		})
		if len(seen) != len(want) {
			t.Fatalf("Range saw %d keys, want %d", len(seen), len(want))
		}
	})
}

// TestReadersSeeStableKeysThroughWrites: while one goroutine inserts and
// deletes thousands of other keys (growing and shrinking the table), readers
// always find the keys that stay, with their entries, never a key that was
// never inserted, and Range sees a stable key exactly once.
func TestReadersSeeStableKeysThroughWrites(t *testing.T) {
	var tab registry.Table
	stable := keyNames(100)
	entries := make([]*registry.Entry, len(stable))
	for i, k := range stable {
		entries[i] = entry(k)
		tab.Insert(entries[i])
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	for r := range 4 {
		wg.Go(func() {
			for i := 0; !stop.Load(); i++ {
				j := (i + r) % len(stable)
				if e, ok := tab.Load(stable[j]); !ok || e != entries[j] {
					t.Errorf("Load(%q) = %p, %v; want %p", stable[j], e, ok, entries[j])
					return
				}
				if _, ok := tab.Load("never"); ok {
					t.Error("found a key never inserted")
					return
				}
				n := 0
				tab.Range(func(e *registry.Entry) bool {
					if e == entries[0] {
						n++
					}
					return true
				})
				if n != 1 {
					t.Errorf("Range saw a stable key %d times", n)
					return
				}
			}
		})
	}
	churn := keyNames(20000)[100:]
	for round := range 3 {
		for _, k := range churn {
			tab.Insert(entry(k))
		}
		for _, k := range churn {
			if _, ok := tab.Delete(k); !ok {
				t.Fatalf("round %d: Delete(%q) found nothing", round, k)
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	if tab.Len() != len(stable) {
		t.Fatalf("Len %d, want %d", tab.Len(), len(stable))
	}
}

func TestClearEmptiesTheTable(t *testing.T) {
	var tab registry.Table
	for _, k := range keyNames(1000) {
		tab.Insert(entry(k))
	}
	tab.Clear()
	if tab.Len() != 0 {
		t.Fatalf("Len %d after Clear", tab.Len())
	}
	tab.Range(func(e *registry.Entry) bool { t.Fatalf("Range gave %q after Clear", e.Key); return false })
	if !tab.Insert(entry("k0")) {
		t.Fatal("Insert after Clear refused")
	}
}

func keyNames(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("k%d", i)
	}
	return keys
}
