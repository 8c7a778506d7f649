// Package registry maps keys to breakers. Reads are lock-free (sync.Map), so
// the call path resolves a key again on every call and always finds the
// breaker that currently serves it; only the supervisor writes.
package registry
