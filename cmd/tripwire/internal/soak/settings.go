package soak

import (
	"time"

	"github.com/tripwire-go/tripwire"
)

// settings are the breakers' settings: short enough that circuits open,
// probe and close many times in a run.
var settings = tripwire.Settings{
	Threshold:   5,
	OpenTimeout: 20 * time.Millisecond,
	CallTimeout: 100 * time.Millisecond,
}

// latencies are the keys' latencies, by key index modulo len: most are fast,
// one is slower than the 30 ms contexts some callers use.
var latencies = []time.Duration{0, 200 * time.Microsecond, time.Millisecond, 5 * time.Millisecond, 40 * time.Millisecond}

// SlowKeys is how many keys a run needs for one of them to be slower than
// the 30 ms deadline some callers give: with fewer, no call times out unless
// it hangs.
var SlowKeys = len(latencies)

const (
	sampleEvery   = time.Millisecond // how often Workers() and the goroutine count are sampled
	drainDeadline = 5 * time.Second  // bound on waiting for answers after the load
	backoff       = time.Millisecond // a caller's pause after ErrOpen: backoff to 2*backoff
	shutdownLimit = 10 * time.Second // bound on Registry.Shutdown
	exitWait      = 5 * time.Second  // bound on waiting for goroutines to exit after Shutdown
)
