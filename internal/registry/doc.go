// Package registry maps keys to breakers. Reads are lock-free (an atomically
// swapped immutable map), so the call path resolves a key again on every call
// and always finds the breaker that currently serves it; only the supervisor
// (and Shutdown) write.
package registry
