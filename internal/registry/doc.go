// Package registry is Tripwire's implementation of the key table. It
// carries no compatibility promise: it lives under internal/ and exports
// only what another package of the module needs.
//
// Reads are lock-free (a hash table whose buckets are immutable lists, each
// replaced whole by one atomic store), so the call path resolves a key again
// on every call and always finds the entry that currently serves it; a write
// is O(1) amortized at any key count. Only the supervisor (and Shutdown)
// write.
package registry
