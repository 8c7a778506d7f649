package actor

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// spinSlice is how long rejected callers may run, process-wide, between two
// yields (spun): a goroutine readied behind R callers on C cores waits about
// R × 2 × spinSlice / C at most (20 ms for a thousand on two cores).
const spinSlice = 20 * time.Microsecond

// lastSpun is when a rejected caller last yielded, or found nobody waiting
// for a core (on the monotonic clock since clockBase).
var lastSpun atomic.Int64

// spun is a look of a rejected caller (every lookEvery rejections of a
// key): once spinSlice has passed since the last look that yielded, it
// yields if goroutines wait for a core. (A count of rejections alone cannot
// bound the time between yields: a loop that does more rejects less often.)
//
//go:noinline
func spun() {
	now := int64(time.Since(clockBase))
	last := lastSpun.Load()
	if now-last < int64(spinSlice) || !lastSpun.CompareAndSwap(last, now) {
		return
	}
	yield()
}

// runnableMetric is the runtime's count of goroutines ready to run that
// have no core.
const runnableMetric = "/sched/goroutines/runnable:goroutines"

// yieldSample is where yield reads runnableMetric, one reader at a time
// (else the Sample escapes: an allocation a read).
var yieldSample = struct {
	sync.Mutex
	s [1]metrics.Sample
}{s: [1]metrics.Sample{{Name: runnableMetric}}}

// yield gives the caller's core to the goroutines waiting for one, if any
// (runtime.Gosched with none waiting wakes an idle core for nothing, about
// 15 µs). Reading the count takes about 85 ns, once a spinSlice at most; a
// caller that finds another reading it yields anyway: they are the crowd.
//
//go:noinline
func yield() {
	if !yieldSample.TryLock() {
		runtime.Gosched()
		return
	}
	metrics.Read(yieldSample.s[:])
	v := yieldSample.s[0].Value
	yieldSample.Unlock()
	if v.Kind() != metrics.KindUint64 || v.Uint64() > 0 {
		runtime.Gosched()
	}
}
