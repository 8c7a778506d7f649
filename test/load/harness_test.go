package load

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/test/chaos"
)

// config is one load run.
type config struct {
	callers    int           // goroutines calling reg.Call in a loop
	askers     int           // actors calling reg.Request, askDepth requests in flight each
	keys       int           // registered keys
	actorEvery int           // every actorEvery-th key is an actor target (0: none)
	duration   time.Duration // how long callers call
	crashEvery time.Duration // period of CrashEvery
	mustSee    []outcome     // answers the run must produce to have exercised the system
}

// The breakers' settings: short enough that circuits open, probe and close
// many times in a run.
var settings = tripwire.Settings{
	Threshold:   5,
	OpenTimeout: 20 * time.Millisecond,
	CallTimeout: 100 * time.Millisecond,
}

// latencies are the keys' latencies, by key index modulo len: most are fast,
// one is slower than the 30 ms contexts some callers use.
var latencies = []time.Duration{0, 200 * time.Microsecond, time.Millisecond, 5 * time.Millisecond, 40 * time.Millisecond}

const (
	askDepth      = 4                      // requests each asker keeps in flight
	sampleEvery   = time.Millisecond       // how often Workers() is sampled
	releaseEvery  = 50 * time.Millisecond  // hung calls are released this often: some outlive their 30 ms deadline
	panicEvery    = 50 * time.Millisecond  // a random key panics once this often
	burstEvery    = 100 * time.Millisecond // a random key fails 10 calls in a row this often
	drainDeadline = 5 * time.Second        // bound on waiting for answers after the run
	backoff       = time.Millisecond       // a caller's pause after ErrOpen: backoff to 2*backoff
)

// harness is one load run in progress.
type harness struct {
	t       *testing.T
	cfg     config
	sys     *actor.ActorSystem
	reg     *tripwire.Registry
	keys    []string
	scripts []*chaos.Script
	isActor []bool
	perKey  [][nOutcomes]atomic.Int64
	nextID  atomic.Int64

	inTarget   atomic.Int64 // function-target invocations running now
	peakTarget maxGauge     // their peak
	maxWorkers maxGauge     // peak of sampled reg.Workers()
	maxGorout  maxGauge     // peak of sampled runtime.NumGoroutine()
	samples    atomic.Int64
	stalls     stalls // when the process was not run
}

// report is what a run measured, for checks and the log.
type report struct {
	calls      callerTally
	perKey     []counts
	crash      chaos.CrashReport
	scripts    chaos.Counts
	elapsed    time.Duration
	peakTarget int64
	maxWorkers int64
	maxGorout  int64
	samples    int64
	stuck      []int64      // ids of Call callers that never returned
	stalls     []span       // when the process was not run
	unexcused  []lateAnswer // late answers that no stall of the process explains
}

func newHarness(t *testing.T, cfg config) *harness {
	t.Helper()
	sys := tripwire.NewActorSystem(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
	reg, err := tripwire.Start(sys)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	h := &harness{t: t, cfg: cfg, sys: sys, reg: reg, perKey: make([][nOutcomes]atomic.Int64, cfg.keys)}
	for i := range cfg.keys {
		key := fmt.Sprintf("k%04d", i)
		s := chaos.New(chaos.Seed(uint64(i)))
		mustSet(t, s.FailRate(0.10))
		mustSet(t, s.HangRate(0.01))
		mustSet(t, s.Latency(latencies[i%len(latencies)]))
		actorKey := cfg.actorEvery > 0 && i%cfg.actorEvery == cfg.actorEvery-1
		var target tripwire.Target
		if actorKey {
			pid, err := s.Spawn(sys, key)
			if err != nil {
				t.Fatalf("Spawn(%q): %v", key, err)
			}
			target = tripwire.ActorTarget(pid)
		} else {
			target = tripwire.FuncTarget(h.counted(s.Wrap(nil)))
		}
		if err := reg.Register(key, target, settings); err != nil {
			t.Fatalf("Register(%q): %v", key, err)
		}
		h.keys, h.scripts, h.isActor = append(h.keys, key), append(h.scripts, s), append(h.isActor, actorKey)
	}
	return h
}

func mustSet(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("chaos setting: %v", err)
	}
}

// set reports a chaos setting's error from any goroutine.
func (h *harness) set(err error) {
	if err != nil {
		h.t.Errorf("chaos setting: %v", err)
	}
}

// counted wraps a function target to count its concurrent invocations.
func (h *harness) counted(fn chaos.Func) chaos.Func {
	return func(ctx context.Context, msg any) (any, error) {
		h.peakTarget.observe(h.inTarget.Add(1))
		defer h.inTarget.Add(-1)
		return fn(ctx, msg)
	}
}

// run drives the load for cfg.duration, shuts everything down and returns
// what it measured. It fails the test at once only if callers are stuck.
func (h *harness) run() report {
	t, cfg := h.t, h.cfg
	start := time.Now()
	stopCalls := make(chan struct{})

	stopSampler := h.every(sampleEvery, h.sample)
	stopProbe := h.stalls.probe()
	stopCrash := chaos.CrashEvery(h.reg, cfg.crashEvery, chaos.Seed(42))
	stopChaos := h.chaosDrivers()

	askers := make([]*actor.PID, cfg.askers)
	for i := range askers {
		askers[i] = h.sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return newAsker(h, i) }))
		h.sys.Root.Send(askers[i], startAsking{})
	}
	var callers sync.WaitGroup
	tallies := make([]callerTally, cfg.callers)
	current := make([]atomic.Int64, cfg.callers) // id of each caller's call in flight
	for i := range cfg.callers {
		callers.Go(func() { tallies[i] = h.caller(i, stopCalls, &current[i]) })
	}

	time.Sleep(cfg.duration) // the load runs; nothing is awaited here
	close(stopCalls)
	for _, a := range askers {
		h.sys.Root.Send(a, stopAsking{})
	}
	var rep report
	if !waitTimeout(&callers, settings.CallTimeout+drainDeadline) {
		for i := range current {
			if id := current[i].Load(); id != 0 {
				rep.stuck = append(rep.stuck, id)
			}
		}
		t.Fatalf("callers stuck after the run, calls in flight: %v", rep.stuck)
	}
	rep.elapsed = time.Since(start)
	stopChaos()
	rep.crash = stopCrash()
	for _, s := range h.scripts {
		s.Heal() // releases every hung call, so Shutdown has no busy worker to wait for
	}
	for _, a := range askers {
		h.awaitDrained(a)
	}
	stopSampler()
	stopProbe()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.reg.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	// Every Request's answer is in its asker's mailbox now (Shutdown waited
	// for them), so the askers' tallies are final, late duplicates included.
	for _, a := range askers {
		tallies = append(tallies, h.askerTally(a))
		if err := h.sys.Root.PoisonFuture(a).Wait(); err != nil {
			t.Errorf("stop asker: %v", err)
		}
	}
	for i := range h.keys {
		if h.isActor[i] {
			_ = h.sys.Root.PoisonFuture(h.sys.NewLocalPID(h.keys[i])).Wait()
		}
	}
	h.sys.Shutdown()

	for _, c := range tallies {
		rep.calls.merge(c)
	}
	rep.perKey = make([]counts, cfg.keys)
	for k := range h.perKey {
		for o := range h.perKey[k] {
			rep.perKey[k][o] = h.perKey[k][o].Load()
		}
	}
	for _, s := range h.scripts {
		c := s.Counts()
		rep.scripts.Calls += c.Calls
		rep.scripts.Failures += c.Failures
		rep.scripts.Panics += c.Panics
		rep.scripts.Hangs += c.Hangs
		rep.scripts.Downs += c.Downs
	}
	rep.peakTarget, rep.maxWorkers = h.peakTarget.load(), h.maxWorkers.load()
	rep.maxGorout, rep.samples = h.maxGorout.load(), h.samples.Load()
	rep.stalls = h.stalls.spans()
	for _, l := range rep.calls.lates {
		if !l.excused(rep.stalls) {
			rep.unexcused = append(rep.unexcused, l)
		}
	}
	return rep
}

// sample records the peaks of reg.Workers() and of the goroutine count.
func (h *harness) sample() {
	h.samples.Add(1)
	h.maxWorkers.observe(int64(h.reg.Workers()))
	h.maxGorout.observe(int64(runtime.NumGoroutine()))
}

// every runs f every period on a goroutine until stop, which waits for it.
func (h *harness) every(period time.Duration, f func()) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				f()
			}
		}
	}()
	return func() { close(quit); <-done }
}

// waitTimeout waits for wg, at most d; it reports whether wg finished.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}
