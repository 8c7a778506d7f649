package soak

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/system"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// harness is one run in progress.
type harness struct {
	heapBase int64 // live heap once the registry was up, before its first key
	heapKeys int64 // live heap once the keys were registered
	cfg      Config
	sys      *actor.ActorSystem
	reg      *tripwire.Registry
	keys     []string
	scripts  []*tripwiretest.Script
	isActor  []bool
	live     *live

	inTarget   atomic.Int64 // function-target invocations running now
	peakTarget maxGauge     // their peak
	maxWorkers maxGauge     // peak of sampled the registry's workers
	maxGorout  maxGauge     // peak of sampled runtime.NumGoroutine()
	samples    atomic.Int64
	stalls     stalls // when the process was not run
	watcher    watcher

	mu       sync.Mutex
	problems []string // the harness's own trouble, reported as violations
}

// golden spreads Config.Seed over the random streams; with seed 0 each
// stream is the one the load test always used.
const golden = 0x9e3779b97f4a7c15

// rng returns random stream number stream for the i-th of its users.
func (h *harness) rng(stream, i uint64) *rand.Rand {
	return rand.New(rand.NewPCG(i, stream^h.cfg.Seed*golden))
}

// newHarness starts a registry with cfg.Keys keys behind chaos scripts, and
// measures the live heap before the first key (heapBase: the registry, its
// actor system and the run's own records) and once every key is registered
// (heapKeys). On error nothing of it is left running.
func newHarness(cfg Config) (*harness, error) {
	sys := system.New(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
	reg, err := tripwire.Start(append([]tripwire.Option{tripwire.WithActorSystem(sys)}, cfg.Options...)...)
	if err != nil {
		sys.Shutdown()
		return nil, fmt.Errorf("%w: Start: %w", ErrSetup, err)
	}
	// The run's own records, sized before the baseline (with the send
	// recorder newLive makes in a hooked build): they are no key's.
	h := &harness{cfg: cfg, sys: sys, reg: reg, live: newLive(cfg.Keys)}
	h.keys = make([]string, 0, cfg.Keys)
	h.scripts = make([]*tripwiretest.Script, 0, cfg.Keys)
	h.isActor = make([]bool, 0, cfg.Keys)
	h.heapBase = liveHeap()
	for i := range cfg.Keys {
		if err := h.addKey(i); err != nil {
			h.shutdown()
			return nil, err
		}
	}
	h.heapKeys = liveHeap()
	return h, nil
}

// addKey registers the i-th key: a function or actor target behind a script
// with the configured faults and the key's latency.
func (h *harness) addKey(i int) error {
	key := keyName(i)
	s := tripwiretest.New(tripwiretest.Seed(uint64(i) + h.cfg.Seed*golden))
	for _, err := range []error{s.FailRate(h.cfg.FailRate), s.HangRate(h.cfg.HangRate), s.Latency(latencies[i%len(latencies)])} {
		if err != nil {
			return fmt.Errorf("%w: key %s: %w", ErrSetup, key, err)
		}
	}
	isActor := h.cfg.isActor(i)
	var target tripwire.Target
	if isActor {
		pid, err := s.Spawn(h.sys, key)
		if err != nil {
			return fmt.Errorf("%w: spawn %s: %w", ErrSetup, key, err)
		}
		target = tripwire.ActorTarget(pid)
	} else {
		target = tripwire.Func(h.counted(s.Wrap(nil)))
	}
	// Recorded before Register so that shutdown stops a spawned actor even
	// if Register fails.
	h.keys, h.scripts, h.isActor = append(h.keys, key), append(h.scripts, s), append(h.isActor, isActor)
	if err := h.reg.Register(context.Background(), key, target, settings); err != nil {
		return fmt.Errorf("%w: register %s: %w", ErrSetup, key, err)
	}
	return nil
}

// counted wraps a function target to count its concurrent invocations.
func (h *harness) counted(fn tripwiretest.Func) tripwiretest.Func {
	return func(ctx context.Context, msg any) (any, error) {
		h.peakTarget.observe(h.inTarget.Add(1))
		defer h.inTarget.Add(-1)
		return fn(ctx, msg)
	}
}

// problem records the harness's own trouble, from any goroutine.
func (h *harness) problem(format string, args ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.problems = append(h.problems, fmt.Sprintf(format, args...))
}

// set records a chaos setting's error as a problem.
func (h *harness) set(err error) {
	if err != nil {
		h.problem("chaos setting: %v", err)
	}
}

// shutdown stops everything the harness started.
func (h *harness) shutdown() {
	h.stopRegistry()
	h.stopSystem()
}

// stopRegistry releases every hung call and shuts the registry down.
func (h *harness) stopRegistry() {
	for _, s := range h.scripts {
		s.Heal() // releases every hung call, so Shutdown has no busy worker to wait for
	}
	ctx, cancel := context.WithTimeout(context.Background(), shutdownLimit)
	defer cancel()
	if err := h.reg.Shutdown(ctx); err != nil {
		h.problem("Shutdown: %v", err)
	}
}

// stopSystem stops the actor targets and the actor system.
func (h *harness) stopSystem() {
	for i := range h.keys {
		if h.isActor[i] {
			_ = h.sys.Root.PoisonFuture(h.sys.NewLocalPID(h.keys[i])).Wait()
		}
	}
	h.sys.Shutdown()
}
