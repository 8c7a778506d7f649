package registry

import (
	"maps"
	"slices"
	"sync"
	"sync/atomic"
)

// Table is the key -> Entry map. Readers load an immutable map through
// one atomic pointer: no lock, no allocation, no interface hashing on the
// call path. Writers (the supervisor, and Shutdown) copy it under a mutex,
// which makes a write O(keys); registration is rare next to calls.
type Table struct {
	mu sync.Mutex
	m  atomic.Pointer[map[string]*Entry]
}

func (r *Table) load() map[string]*Entry {
	if p := r.m.Load(); p != nil {
		return *p
	}
	return nil
}

// Load returns the entry for key.
func (r *Table) Load(key string) (*Entry, bool) {
	e, ok := r.load()[key]
	return e, ok
}

// Insert adds e unless its key is taken; it reports whether it was added.
func (r *Table) Insert(e *Entry) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.load()
	if _, taken := old[e.Key]; taken {
		return false
	}
	next := make(map[string]*Entry, len(old)+1)
	maps.Copy(next, old)
	next[e.Key] = e
	r.m.Store(&next)
	return true
}

// Delete removes key and returns the entry it held.
func (r *Table) Delete(key string) (*Entry, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.load()
	e, ok := old[key]
	if !ok {
		return nil, false
	}
	// A map of the size it has now: a clone would keep the buckets of the
	// largest the map ever was.
	next := make(map[string]*Entry, len(old)-1)
	for k, v := range old {
		if k != key {
			next[k] = v
		}
	}
	r.m.Store(&next)
	return e, true
}

// Range calls fn for every entry until fn returns false. It sees the keys
// registered when it starts.
func (r *Table) Range(fn func(*Entry) bool) {
	for _, e := range r.load() {
		if !fn(e) {
			return
		}
	}
}

// Keys returns the registered keys, sorted.
func (r *Table) Keys() []string {
	return slices.Sorted(maps.Keys(r.load()))
}

// Len is the number of keys.
func (r *Table) Len() int { return len(r.load()) }

// Clear removes every key.
func (r *Table) Clear() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.m.Store(nil)
}
