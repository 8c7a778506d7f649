package keymap

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// Map maps string keys to values of type *V; its zero value is an empty
// map ready to use. Load and Range may run
// concurrently with each other and with one write at a time; writes are
// serialized by the map's own mutex.
//
// It is a hash table of buckets, each an immutable linked list that a write
// replaces whole (prepending a node, or copying the nodes before the one it
// removes), published with one atomic store: a reader sees each bucket
// either before or after a write, never in between. The table doubles when
// it holds more than two keys per bucket and halves when fewer than one in
// eight, rebuilt off to the side and published with one store as well; a
// reader keeps the table it loaded. So a write costs O(1) amortized and a
// table that shrank gives its memory back.
type Map[V any] struct {
	mu  sync.Mutex
	tab atomic.Pointer[table[V]] // nil until the first Insert
	n   atomic.Int64
}

type table[V any] struct {
	seed    maphash.Seed // kept by every table of the map
	mask    uint64
	buckets []atomic.Pointer[node[V]]
}

type node[V any] struct {
	hash uint64
	key  string
	val  *V
	next *node[V]
}

const minBuckets = 8

func newTable[V any](seed maphash.Seed, size int) *table[V] {
	return &table[V]{seed: seed, mask: uint64(size - 1), buckets: make([]atomic.Pointer[node[V]], size)}
}

// Load returns the value of key.
func (m *Map[V]) Load(key string) (*V, bool) {
	t := m.tab.Load()
	if t == nil {
		return nil, false
	}
	h := maphash.String(t.seed, key)
	for n := t.buckets[h&t.mask].Load(); n != nil; n = n.next {
		if n.hash == h && n.key == key {
			return n.val, true
		}
	}
	return nil, false
}

// Len is the number of keys.
func (m *Map[V]) Len() int { return int(m.n.Load()) }

// Insert adds key with v unless key is there; it reports whether it added.
func (m *Map[V]) Insert(key string, v *V) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.tab.Load()
	if t == nil {
		t = newTable[V](maphash.MakeSeed(), minBuckets)
		m.tab.Store(t)
	}
	h := maphash.String(t.seed, key)
	slot := &t.buckets[h&t.mask]
	head := slot.Load()
	for n := head; n != nil; n = n.next {
		if n.hash == h && n.key == key {
			return false
		}
	}
	slot.Store(&node[V]{hash: h, key: key, val: v, next: head})
	if n := m.n.Add(1); n > 2*int64(len(t.buckets)) {
		m.tab.Store(t.resized(2 * len(t.buckets)))
	}
	return true
}

// Delete removes key and returns its value.
func (m *Map[V]) Delete(key string) (*V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.tab.Load()
	if t == nil {
		return nil, false
	}
	h := maphash.String(t.seed, key)
	slot := &t.buckets[h&t.mask]
	head := slot.Load()
	var found *node[V]
	for n := head; n != nil; n = n.next {
		if n.hash == h && n.key == key {
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
	var prefix []*node[V]
	for n := head; n != found; n = n.next {
		prefix = append(prefix, n)
	}
	for i := len(prefix) - 1; i >= 0; i-- {
		p := prefix[i]
		rest = &node[V]{hash: p.hash, key: p.key, val: p.val, next: rest}
	}
	slot.Store(rest)
	if n := m.n.Add(-1); len(t.buckets) > minBuckets && n < int64(len(t.buckets)/8) {
		m.tab.Store(t.resized(len(t.buckets) / 2))
	}
	return found.val, true
}

// resized is t rebuilt with size buckets.
func (t *table[V]) resized(size int) *table[V] {
	next := newTable[V](t.seed, size)
	for i := range t.buckets {
		for n := t.buckets[i].Load(); n != nil; n = n.next {
			slot := &next.buckets[n.hash&next.mask]
			slot.Store(&node[V]{hash: n.hash, key: n.key, val: n.val, next: slot.Load()})
		}
	}
	return next
}

// Range calls fn for each key and value until fn returns false. It sees
// each bucket as it is when it gets there: a key present for all of Range
// is seen once, one added or removed meanwhile may or may not be.
func (m *Map[V]) Range(fn func(key string, v *V) bool) {
	t := m.tab.Load()
	if t == nil {
		return
	}
	for i := range t.buckets {
		for n := t.buckets[i].Load(); n != nil; n = n.next {
			if !fn(n.key, n.val) {
				return
			}
		}
	}
}

// Clear removes every key.
func (m *Map[V]) Clear() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tab.Store(nil)
	m.n.Store(0)
}
