package soak

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/tripwire-go/tripwire/internal/sendhook"
)

// sendTimes records when Tripwire sent the answer to each call, by the
// call's id (its message), in a build with the tag tripwire_sendhook: a
// late answer it sent on time reached a caller that then waited to be run,
// which is the Go scheduler's doing, not Tripwire's (see LateAnswer.Sent).
// It keeps the last sendSlots ids' times, which is seconds of calls at any
// rate the soak reaches; a caller looks its own up as soon as it has it.
type sendTimes struct {
	base  time.Time // the monotonic clock's origin of the times kept
	slots []sendSlot
}

// sendSlot is the send time of one id (in ns since base), or of none while
// id is 0. A writer clears id, writes at, then writes id; a reader that
// finds its id before and after reading at has the time written for it.
type sendSlot struct{ id, at atomic.Int64 }

// sendSlots is how many ids' times are kept: 16 MB.
const sendSlots = 1 << 20

var (
	sendsOnce sync.Once
	sends     *sendTimes
	// callIDs numbers the calls of every run in the process: a slot never
	// holds a time another run recorded for the same id.
	callIDs atomic.Int64
)

// recorder returns the process's send times, installing the hook on first
// use, or nil in a build without the hook.
func recorder() *sendTimes {
	if !sendhook.On {
		return nil
	}
	sendsOnce.Do(func() {
		sends = &sendTimes{base: time.Now(), slots: make([]sendSlot, sendSlots)}
		sendhook.Set(sends.mark)
	})
	return sends
}

// mark records that the answer to the call whose message is msg is being
// sent now; messages that are not a soak call's id are left.
func (s *sendTimes) mark(msg any) {
	id, ok := msg.(int64)
	if !ok || id <= 0 {
		return
	}
	sl := &s.slots[id%sendSlots]
	sl.id.Store(0)
	sl.at.Store(int64(time.Since(s.base)))
	sl.id.Store(id)
}

// at returns when the answer to call id was sent, if it is kept.
func (s *sendTimes) at(id int64) (time.Time, bool) {
	if s == nil || id <= 0 {
		return time.Time{}, false
	}
	sl := &s.slots[id%sendSlots]
	if sl.id.Load() != id {
		return time.Time{}, false
	}
	at := sl.at.Load()
	if sl.id.Load() != id {
		return time.Time{}, false
	}
	return s.base.Add(time.Duration(at)), true
}
