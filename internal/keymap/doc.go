// Package keymap is a concurrent map from string keys to pointers, for
// tables that one writer at a time changes and many goroutines read on a hot
// path: a read takes no lock and allocates nothing, a write is O(1)
// amortized.
package keymap
