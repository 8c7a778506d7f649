package soak

import (
	"context"
	"runtime"

	"github.com/tripwire-go/tripwire/internal/hook"
)

// sample records the peaks of the registry's workers and of the goroutine count.
func (h *harness) sample() {
	h.samples.Add(1)
	h.maxWorkers.observe(int64(hook.Workers(h.reg)))
	h.maxGorout.observe(int64(runtime.NumGoroutine()))
}

// restarts adds up the crash-restarts the breakers counted.
func (h *harness) restarts() int64 {
	var n int64
	for _, k := range h.keys {
		s, err := h.reg.Snapshot(context.Background(), k)
		if err != nil {
			h.problem("Snapshot(%s): %v", k, err)
			continue
		}
		n += int64(s.Restarts)
	}
	return n
}
