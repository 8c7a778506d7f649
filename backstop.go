package tripwire

import (
	"math"
	"sync/atomic"
	"time"

	tactor "github.com/tripwire-go/tripwire/actor"
)

// graceAfter is wait + ReplyGrace, saturating instead of overflowing for a
// CallTimeout near math.MaxInt64 ("no timeout").
func graceAfter(wait time.Duration) time.Duration {
	if wait > math.MaxInt64-ReplyGrace {
		return math.MaxInt64
	}
	return wait + ReplyGrace
}

// backstop is a caller's timer of last resort: at the call's deadline plus
// ReplyGrace it answers the call with ErrTimeout if nobody else has. The
// breaker enforces every deadline itself; the backstop only matters if the
// breaker is too busy, or gone without a word.
type backstop struct {
	t    *time.Timer
	call atomic.Pointer[tactor.Call]
}

func (bs *backstop) fire() {
	if c := bs.call.Load(); c != nil {
		c.Expire(ErrTimeout)
	}
}

// backstop arms a backstop for c from the registry's pool. The pool is per
// registry, so a timer never crosses a synctest bubble.
func (r *Registry) backstop(c *tactor.Call, d time.Duration) *backstop {
	bs, ok := r.timers.Get().(*backstop)
	if !ok {
		bs = &backstop{}
		bs.call.Store(c)
		bs.t = time.AfterFunc(d, bs.fire)
		return bs
	}
	bs.call.Store(c)
	bs.t.Reset(d)
	return bs
}

// releaseBackstop disarms bs and pools it, unless it has fired: its function
// may still be running then, so neither it nor its call is reused. It
// reports whether bs was disarmed in time.
func (r *Registry) releaseBackstop(bs *backstop) bool {
	if !bs.t.Stop() {
		return false
	}
	bs.call.Store(nil)
	r.timers.Put(bs)
	return true
}
