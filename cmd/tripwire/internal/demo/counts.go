package demo

import "github.com/tripwire-go/tripwire/internal/observe"

// Counts are the answers callers got from one key, by kind.
type Counts struct {
	Calls     int64 // answers of every kind
	OK        int64
	Failed    int64 // the dependency's own failures, ErrTargetPanic, ErrTargetDown, ErrShutdown
	Timeouts  int64 // ErrTimeout
	Rejected  int64 // ErrOpen, ErrOverloaded
	Restarted int64 // ErrBreakerRestarted
}

// Add counts n answers of kind k. A call its caller withdrew (canceled) is
// in Calls only; a target's own deadline error is a failure.
func (c *Counts) Add(k observe.Kind, n int64) {
	c.Calls += n
	switch k {
	case observe.KindOK:
		c.OK += n
	case observe.KindOpen, observe.KindOverloaded:
		c.Rejected += n
	case observe.KindTimeout:
		c.Timeouts += n
	case observe.KindRestarted:
		c.Restarted += n
	case observe.KindCanceled:
	default:
		c.Failed += n
	}
}
