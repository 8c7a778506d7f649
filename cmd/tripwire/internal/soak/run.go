package soak

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/tripwire-go/tripwire/tripwiretest"
)

// Run makes one run of cfg: it starts a registry of cfg.Keys keys behind
// chaos scripts, lets the callers call for cfg.Duration while breakers crash
// and targets misbehave, drains every call, shuts everything down and
// returns what it measured. Cancelling ctx ends the load early; the run
// still drains, shuts down and reports (Report.Interrupted). cfg.Watch, if
// set, sees the registry and the callers' tallies while the load runs (see
// Live), for a dashboard.
//
// Errors: ErrNilContext, ErrInvalidConfig (see Config.Validate), ctx's error
// if it is done before the run starts, ErrSetup. A run that breaks an
// invariant is not an error: see Report.Violations.
func Run(ctx context.Context, cfg Config) (Report, error) {
	if ctx == nil {
		return Report{}, ErrNilContext
	}
	if err := cfg.Validate(); err != nil {
		return Report{}, err
	}
	if err := ctx.Err(); err != nil {
		return Report{}, fmt.Errorf("soak: not started: %w", err)
	}
	before := runtime.NumGoroutine()
	h, err := newHarness(cfg)
	if err != nil {
		return Report{}, err
	}
	rep := h.run(ctx)
	rep.GoroutinesBefore = before
	rep.GoroutinesAfter = settle(before, runtime.NumGoroutine)
	return rep, nil
}

// run drives the load, shuts everything down and returns what it measured.
func (h *harness) run(ctx context.Context) Report {
	cfg := h.cfg
	var rep Report
	stopWatch := h.watch()
	start := time.Now()
	stopSampler := every(sampleEvery, h.sample)
	stopProbe := h.stalls.probe()
	waits := schedWaits()
	stopCrash := h.crashes()
	stopChaos := h.chaosDrivers()
	askers := h.startAskers(cfg.Askers)
	callers := h.startCallers(cfg.Callers)
	stopProgress := h.reportProgress(start)

	rep.Interrupted = hold(ctx, cfg.Duration) // the load runs

	stopProgress()
	callers.Halt()
	h.haltAskers(askers)
	if !callers.WaitFor(settings.CallTimeout + drainDeadline) {
		rep.Stuck = callers.inFlight()
	}
	rep.Elapsed = time.Since(start)
	stopChaos()
	rep.Crash = stopCrash()
	h.endWatcherCrashes(&rep.Crash)
	for _, s := range h.scripts {
		s.Heal() // releases every hung call: the askers' requests on actor targets drain
	}
	for _, a := range askers {
		h.awaitDrained(a)
	}
	stopSampler()
	stopProbe()
	rep.Sched = schedWaitsBetween(waits, schedWaits(), LateSlack)
	rep.Restarts = h.restarts()
	stopWatch()
	rep.HeapBase, rep.HeapPerKey = h.heapBase, perKey(h.heapKeys, h.heapBase, cfg.Keys)
	rep.HeapGrowth = liveHeap() - h.heapKeys

	h.stopRegistry()
	if len(rep.Stuck) != 0 {
		callers.WaitFor(drainDeadline) // Shutdown may have answered them
	}
	tallies := append(callers.tallies(), h.finishAskers(askers)...)
	h.stopSystem()
	h.fill(&rep, tallies, len(callers.Running()))
	return rep
}

// crashes starts CrashEvery if the run crashes breakers; stop returns what
// it did.
func (h *harness) crashes() (stop func() tripwiretest.CrashReport) {
	if h.cfg.CrashEvery == 0 {
		return func() tripwiretest.CrashReport { return tripwiretest.CrashReport{ByKey: map[string]int{}} }
	}
	return tripwiretest.CrashEvery(h.reg, h.cfg.CrashEvery, tripwiretest.Seed(42+h.cfg.Seed*golden))
}

// hold waits for d or for ctx to be done, and reports whether ctx was.
func hold(ctx context.Context, d time.Duration) (interrupted bool) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return false
	case <-ctx.Done():
		return true
	}
}

// settle waits, at most exitWait, for count (the process's goroutines) to
// come down to before, and returns it.
func settle(before int, count func() int) int {
	deadline := time.Now().Add(exitWait)
	for {
		n := count()
		if n <= before || time.Now().After(deadline) {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
}
