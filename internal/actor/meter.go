package actor

import "sync/atomic"

// MeterOutcomes is how many outcomes the metrics count a call under
// (success, failure, timeout, rejected, canceled: observe.Label), and
// MeterStates how many circuit states a transition goes from and to.
const (
	MeterOutcomes = 5
	MeterStates   = 3
)

// Meter is what the OpenTelemetry metrics count of one key, made on its
// first count and read when a reader collects: calls and the time callers
// spent in them by outcome, transitions by from and to (made on the
// first), restarts. A key's Config holds it, so it goes with the key: a
// key unregistered or forgotten is no longer in the table the metrics
// walk, and its counts are no longer reported.
type Meter struct {
	Calls       [MeterOutcomes]atomic.Int64
	Nanos       [MeterOutcomes]atomic.Int64
	Restarts    atomic.Int64
	Transitions atomic.Pointer[[MeterStates][MeterStates]atomic.Int64] // [from][to], by state.State
}

// Meter returns the key's Meter, made now if it has none.
func (c *Config) Meter() *Meter {
	if m := c.meter.Load(); m != nil {
		return m
	}
	c.meter.CompareAndSwap(nil, new(Meter))
	return c.meter.Load()
}

// Metered returns the key's Meter, or nil if nothing was counted.
func (c *Config) Metered() *Meter { return c.meter.Load() }
