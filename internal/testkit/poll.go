package testkit

import "time"

// Poll reports whether cond held within d, asking it every 5 ms: for the
// tests that run in real time (real sockets, processes, etcd), which wait
// for a condition instead of sleeping a guess.
func Poll(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}
