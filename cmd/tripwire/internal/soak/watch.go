package soak

import (
	"sync"

	"github.com/tripwire-go/tripwire/tripwiretest"
)

// watcher is what a run's watcher (Config.Watch) did to it.
type watcher struct {
	mu      sync.Mutex
	over    bool                     // the load is over: Live.Crash refuses
	crashes tripwiretest.CrashReport // made through Live.Crash
}

// watch calls Config.Watch, if set, with a view of the run, and returns the
// function that stops the watcher.
func (h *harness) watch() (stop func()) {
	if h.cfg.Watch == nil {
		return func() {}
	}
	if stop := h.cfg.Watch(&Live{h: h}); stop != nil {
		return stop
	}
	return func() {}
}

// endWatcherCrashes makes Live.Crash refuse from now on, and adds the
// crashes it made to rep, CrashEvery's report.
func (h *harness) endWatcherCrashes(rep *tripwiretest.CrashReport) {
	w := &h.watcher
	w.mu.Lock()
	defer w.mu.Unlock()
	w.over = true
	rep.Crashes += w.crashes.Crashes
	rep.Errors += w.crashes.Errors
	if rep.ByKey == nil && len(w.crashes.ByKey) != 0 {
		rep.ByKey = map[string]int{}
	}
	for k, n := range w.crashes.ByKey {
		rep.ByKey[k] += n
	}
}
