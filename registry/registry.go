package registry

import (
	"slices"
	"sync"
)

// Registry is the key -> Entry map.
type Registry struct {
	m sync.Map
}

// Load returns the entry for key.
func (r *Registry) Load(key string) (*Entry, bool) {
	v, ok := r.m.Load(key)
	if !ok {
		return nil, false
	}
	return v.(*Entry), true
}

// Insert adds e unless its key is taken; it reports whether it was added.
func (r *Registry) Insert(e *Entry) bool {
	_, loaded := r.m.LoadOrStore(e.Key, e)
	return !loaded
}

// Delete removes key and returns the entry it held.
func (r *Registry) Delete(key string) (*Entry, bool) {
	v, ok := r.m.LoadAndDelete(key)
	if !ok {
		return nil, false
	}
	return v.(*Entry), true
}

// Range calls fn for every entry until fn returns false.
func (r *Registry) Range(fn func(*Entry) bool) {
	r.m.Range(func(_, v any) bool { return fn(v.(*Entry)) })
}

// Keys returns the registered keys, sorted.
func (r *Registry) Keys() []string {
	var keys []string
	r.m.Range(func(k, _ any) bool {
		keys = append(keys, k.(string))
		return true
	})
	slices.Sort(keys)
	return keys
}

// Len is the number of keys.
func (r *Registry) Len() int {
	n := 0
	r.m.Range(func(_, _ any) bool { n++; return true })
	return n
}
