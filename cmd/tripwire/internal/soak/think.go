package soak

import "github.com/tripwire-go/tripwire/cmd/tripwire/internal/load"

// think is what a caller (goroutine or asker) does between calls: it thinks
// for a while, and after ErrOpen it backs off, like a real client. Callers
// that call again at once would keep the CPUs saturated (an open circuit
// answers without blocking): every goroutine that wakes up (a caller whose
// deadline passed, a breaker, a worker) would then wait behind all of them
// in the run queue, for hundreds of milliseconds on 2 CPUs under -race, and
// the lateness check would measure the Go scheduler rather than Tripwire.
func (h *harness) think() load.Think {
	return load.Think{Pause: h.cfg.Think, Jitter: true, AfterOpen: backoff}
}
