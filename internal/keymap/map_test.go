package keymap_test

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"

	"github.com/tripwire-go/tripwire/internal/keymap"
)

// TestMapAgreesWithAGoMap: any sequence of inserts and deletes leaves the
// map holding what a Go map given the same sequence holds, through growth
// and shrinking.
func TestMapAgreesWithAGoMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m, want := new(keymap.Map[int]), map[string]*int{}
		keys := rapid.SampledFrom(keyNames(300))
		for range rapid.IntRange(0, 3000).Draw(t, "ops") {
			k := keys.Draw(t, "key")
			if rapid.Bool().Draw(t, "insert") {
				v := new(int)
				_, taken := want[k]
				if got := m.Insert(k, v); got == taken {
					t.Fatalf("Insert(%q) = %v with the key taken %v", k, got, taken)
				}
				if !taken {
					want[k] = v
				}
			} else {
				v, ok := m.Delete(k)
				if w, had := want[k]; ok != had || v != w {
					t.Fatalf("Delete(%q) = %p, %v; want %p, %v", k, v, ok, w, had)
				}
				delete(want, k)
			}
			if m.Len() != len(want) {
				t.Fatalf("Len %d, want %d", m.Len(), len(want))
			}
		}
		for k, w := range want {
			if v, ok := m.Load(k); !ok || v != w {
				t.Fatalf("Load(%q) = %p, %v; want %p", k, v, ok, w)
			}
		}
		seen := map[string]bool{}
		m.Range(func(k string, v *int) bool {
			if seen[k] || want[k] != v {
				t.Fatalf("Range gave %q twice or with the wrong value", k)
			}
			seen[k] = true
			return true
		})
		if len(seen) != len(want) {
			t.Fatalf("Range saw %d keys, want %d", len(seen), len(want))
		}
	})
}

// TestReadersSeeStableKeysThroughWrites: while one goroutine inserts and
// deletes thousands of other keys (growing and shrinking the table), readers
// always find the keys that stay, with their values, and never one that was
// never inserted.
func TestReadersSeeStableKeysThroughWrites(t *testing.T) {
	m := new(keymap.Map[int])
	stable := keyNames(100)
	vals := make([]*int, len(stable))
	for i, k := range stable {
		vals[i] = new(int)
		m.Insert(k, vals[i])
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	for r := range 4 {
		wg.Go(func() {
			for i := 0; !stop.Load(); i++ {
				j := (i + r) % len(stable)
				if v, ok := m.Load(stable[j]); !ok || v != vals[j] {
					t.Errorf("Load(%q) = %p, %v; want %p", stable[j], v, ok, vals[j])
					return
				}
				if _, ok := m.Load("never"); ok {
					t.Error("found a key never inserted")
					return
				}
				n := 0
				m.Range(func(k string, _ *int) bool {
					if slices.Contains(stable[:1], k) {
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
			m.Insert(k, new(int))
		}
		for _, k := range churn {
			if _, ok := m.Delete(k); !ok {
				t.Fatalf("round %d: Delete(%q) found nothing", round, k)
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	if m.Len() != len(stable) {
		t.Fatalf("Len %d, want %d", m.Len(), len(stable))
	}
}

func TestClearEmptiesTheMap(t *testing.T) {
	m := new(keymap.Map[int])
	for _, k := range keyNames(1000) {
		m.Insert(k, new(int))
	}
	m.Clear()
	if m.Len() != 0 {
		t.Fatalf("Len %d after Clear", m.Len())
	}
	m.Range(func(k string, _ *int) bool { t.Fatalf("Range gave %q after Clear", k); return false })
	if !m.Insert("k0", new(int)) {
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
