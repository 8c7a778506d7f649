package registry

import (
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
)

// Table is the key -> Entry map; its zero value is an empty table. Load
// and Range run concurrently with each other and one write at a time
// (serialized by its mutex); a read takes no lock and allocates nothing, a
// write is O(1) amortized.
//
// It is a hash table of buckets, each an immutable linked list of 24-byte
// nodes that a write replaces whole, published with one atomic store: a
// reader sees a bucket before or after a write, never in between. The table
// doubles over two keys a bucket and halves under one in eight, rebuilt to
// the side and published with one store too (a reader keeps the table it
// loaded), so a table that shrank gives its memory back.
type Table struct {
	mu  sync.Mutex
	tab atomic.Pointer[table] // nil until the first Insert
	n   atomic.Int64
}

type table struct {
	seed    maphash.Seed // kept by every table of one Table
	mask    uint64
	buckets []atomic.Pointer[node]
}

type node struct {
	hash uint64
	e    *Entry
	next *node
}

const minBuckets = 8

func newTable(seed maphash.Seed, size int) *table {
	return &table{seed: seed, mask: uint64(size - 1), buckets: make([]atomic.Pointer[node], size)}
}

// Load returns the entry for key.
func (r *Table) Load(key string) (*Entry, bool) {
	t := r.tab.Load()
	if t == nil {
		return nil, false
	}
	h := maphash.String(t.seed, key)
	for n := t.buckets[h&t.mask].Load(); n != nil; n = n.next {
		if n.hash == h && n.e.Key == key {
			return n.e, true
		}
	}
	return nil, false
}

// Len is the number of keys.
func (r *Table) Len() int { return int(r.n.Load()) }

// Insert adds e unless its key is taken (or e is nil); it reports whether
// it was added.
func (r *Table) Insert(e *Entry) bool {
	if e == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.tab.Load()
	if t == nil {
		t = newTable(maphash.MakeSeed(), minBuckets)
		r.tab.Store(t)
	}
	h := maphash.String(t.seed, e.Key)
	slot := &t.buckets[h&t.mask]
	head := slot.Load()
	for n := head; n != nil; n = n.next {
		if n.hash == h && n.e.Key == e.Key {
			return false
		}
	}
	slot.Store(&node{hash: h, e: e, next: head})
	if n := r.n.Add(1); n > 2*int64(len(t.buckets)) {
		r.tab.Store(t.resized(2 * len(t.buckets)))
	}
	return true
}

// Delete removes key and returns the entry it held.
func (r *Table) Delete(key string) (*Entry, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.tab.Load()
	if t == nil {
		return nil, false
	}
	h := maphash.String(t.seed, key)
	slot := &t.buckets[h&t.mask]
	head := slot.Load()
	var found *node
	for n := head; n != nil; n = n.next {
		if n.hash == h && n.e.Key == key {
			found = n
			break
		}
	}
	if found == nil {
		return nil, false
	}
	// The nodes before the one removed are copied: a reader walking the
	// old list still sees all of it.
	rest := found.next
	var prefix []*node
	for n := head; n != found; n = n.next {
		prefix = append(prefix, n)
	}
	for i := len(prefix) - 1; i >= 0; i-- {
		rest = &node{hash: prefix[i].hash, e: prefix[i].e, next: rest}
	}
	slot.Store(rest)
	if n := r.n.Add(-1); len(t.buckets) > minBuckets && n < int64(len(t.buckets)/8) {
		r.tab.Store(t.resized(len(t.buckets) / 2))
	}
	return found.e, true
}

// resized is t rebuilt with size buckets.
func (t *table) resized(size int) *table {
	next := newTable(t.seed, size)
	for i := range t.buckets {
		for n := t.buckets[i].Load(); n != nil; n = n.next {
			slot := &next.buckets[n.hash&next.mask]
			slot.Store(&node{hash: n.hash, e: n.e, next: slot.Load()})
		}
	}
	return next
}

// Range calls fn for every entry until fn returns false. It sees each
// bucket as it is when it gets there: a key registered for all of Range is
// seen once, one registered or removed meanwhile may or may not be.
func (r *Table) Range(fn func(*Entry) bool) {
	t := r.tab.Load()
	if t == nil || fn == nil {
		return
	}
	for i := range t.buckets {
		for n := t.buckets[i].Load(); n != nil; n = n.next {
			if !fn(n.e) {
				return
			}
		}
	}
}

// Keys returns the registered keys, sorted.
func (r *Table) Keys() []string {
	keys := make([]string, 0, r.Len())
	r.Range(func(e *Entry) bool {
		keys = append(keys, e.Key)
		return true
	})
	slices.Sort(keys)
	return keys
}

// Clear removes every key.
func (r *Table) Clear() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tab.Store(nil)
	r.n.Store(0)
}
