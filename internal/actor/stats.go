package actor

import "github.com/tripwire-go/tripwire/state"

// The statistics' window, and the width of its buckets.
const (
	StatsWindow  = state.StatsWindow
	StatsBuckets = state.StatsBuckets
	statsWidth   = StatsWindow / StatsBuckets
)

// Counts, Latency and Stats are state's.
type (
	Counts  = state.Counts
	Latency = state.Latency
	Stats   = state.Stats
)

// tally is one kind of end a call can have.
type tally uint8

const (
	tSuccess tally = iota
	tFailure
	tTimeout // a failure too
	tRejected
	tOverloaded
	tIgnored
	tCanceled
	nTallies
)

// add counts n calls of kind t in c.
func addTally(c *state.Counts, t tally, n uint64) {
	switch t {
	case tSuccess:
		c.Successes += n
	case tFailure:
		c.Failures += n
	case tTimeout:
		c.Failures += n
		c.Timeouts += n
	case tRejected:
		c.Rejected += n
	case tOverloaded:
		c.Overloaded += n
	case tIgnored:
		c.Ignored += n
	case tCanceled:
		c.Canceled += n
	}
	c.Calls += n
}
