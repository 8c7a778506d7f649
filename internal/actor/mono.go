package actor

import "time"

// mono is an instant as nanoseconds on the monotonic clock since clockBase:
// 8 bytes where a time.Time takes 24, for the instants every breaker keeps.
type mono int64

// clockBase is the origin of mono instants.
var clockBase = time.Now()

func monoOf(t time.Time) mono { return mono(t.Sub(clockBase)) }

// monoNow is now as a mono: one clock read, without monoOf(time.Now())'s arithmetic.
func monoNow() mono { return mono(time.Since(clockBase)) }

// sub is the time from o to m.
func (m mono) sub(o mono) time.Duration { return time.Duration(m - o) }

// clock is t on the clock the statistics' windows count on
// (state.Rolling): mono's, as a duration.
func clock(t time.Time) time.Duration { return t.Sub(clockBase) }
