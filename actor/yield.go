package actor

import (
	"runtime"
	"runtime/metrics"
	"sync"
)

// runnableMetric is the runtime's count of goroutines ready to run that
// have no core.
const runnableMetric = "/sched/goroutines/runnable:goroutines"

// yieldSample is where yield reads runnableMetric (one reader at a time:
// a Sample passed to metrics.Read would otherwise escape, one allocation
// per read).
var yieldSample = struct {
	sync.Mutex
	s [1]metrics.Sample
}{s: [1]metrics.Sample{{Name: runnableMetric}}}

// yield gives the caller's core to the goroutines waiting for one, if any
// are (out of line: the open path stays small). With none waiting it
// returns at once: runtime.Gosched would wake an idle core for nothing (a
// futex call in wakep, about 15 µs), which made a lone caller's open path
// a fifth slower. Reading the count takes about 85 ns, once every
// yieldEvery rejections; a caller that finds another reading it yields
// anyway, since callers contending here are themselves the crowd.
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
