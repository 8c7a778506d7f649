package registry

import (
	"slices"

	"github.com/tripwire-go/tripwire/internal/keymap"
)

// Table is the key -> Entry map. Reads (the call path) take no lock and
// allocate nothing; writes (the supervisor, and Shutdown) are O(1)
// amortized, so keys made on demand by the million cost the same each.
// Its zero value is an empty table.
type Table struct {
	m keymap.Map[Entry]
}

// Load returns the entry for key.
func (r *Table) Load(key string) (*Entry, bool) { return r.m.Load(key) }

// Insert adds e unless its key is taken; it reports whether it was added.
func (r *Table) Insert(e *Entry) bool { return r.m.Insert(e.Key, e) }

// Delete removes key and returns the entry it held.
func (r *Table) Delete(key string) (*Entry, bool) { return r.m.Delete(key) }

// Range calls fn for every entry until fn returns false. A key registered
// for all of Range is seen once; one registered or removed meanwhile may
// or may not be.
func (r *Table) Range(fn func(*Entry) bool) {
	r.m.Range(func(_ string, e *Entry) bool { return fn(e) })
}

// Keys returns the registered keys, sorted.
func (r *Table) Keys() []string {
	keys := make([]string, 0, r.m.Len())
	r.m.Range(func(k string, _ *Entry) bool {
		keys = append(keys, k)
		return true
	})
	slices.Sort(keys)
	return keys
}

// Len is the number of keys.
func (r *Table) Len() int { return r.m.Len() }

// Clear removes every key.
func (r *Table) Clear() { r.m.Clear() }
