// Package scale measures Tripwire at the key counts its users run: 100,000
// keys in a test that bounds growth (make test, without the race detector,
// which would make it a quarter of an hour), and a million in benchmarks
// with their peers in the same run (make scale). See BENCHMARKS.md.
package scale
