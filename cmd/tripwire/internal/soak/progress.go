package soak

import (
	"runtime"
	"time"

	"github.com/tripwire-go/tripwire/internal/hook"
)

// Progress is where a run stands, as Config.Progress gets it.
type Progress struct {
	Elapsed    time.Duration // since the callers started
	Calls      int64         // calls and requests made so far
	Answers    Counts        // their answers so far, by outcome
	Late       int64         // answers more than LateSlack past their deadline so far (stalls not yet weighed)
	MaxOver    time.Duration // the latest answer so far, past its deadline
	Goroutines int           // runtime.NumGoroutine() now
	Workers    int           // the registry's workers (internal/hook) now
}

// InFlight is the number of calls made and not answered yet.
func (p Progress) InFlight() int64 { return max(0, p.Calls-p.Answers.Sum()) }

// progress reads where the run stands.
func (h *harness) progress(start time.Time) Progress {
	p := Progress{Elapsed: time.Since(start)}
	// Answers first: a call is counted as made before it is answered, so
	// calls read after answers are never fewer.
	for k := range h.live.perKey {
		p.Answers.Add(h.live.perKey[k].load())
	}
	p.Calls = h.live.started.Load()
	p.Late = h.live.lates.Load()
	p.MaxOver = time.Duration(h.live.maxOver.load())
	p.Goroutines = runtime.NumGoroutine()
	p.Workers = hook.Workers(h.reg)
	return p
}

// reportProgress calls Config.Progress every ProgressEvery until stop.
func (h *harness) reportProgress(start time.Time) (stop func()) {
	if h.cfg.Progress == nil {
		return func() {}
	}
	return every(h.cfg.progressEvery(), func() { h.cfg.Progress(h.progress(start)) })
}
