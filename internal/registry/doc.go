// Package registry is Tripwire's key table (internal/: no compatibility
// promise). Reads are lock-free (a hash table whose buckets are immutable
// lists, each replaced whole by one atomic store), so the call path resolves
// a key on every call and finds the entry that serves it now; a write is
// O(1) amortized at any key count. Only the supervisor and Shutdown write.
package registry
