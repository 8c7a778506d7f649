package task

import (
	"math"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// DeadlineHeader names the message header in which an ask carries its
// call's deadline to the target: the Unix time in nanoseconds, in decimal.
// It crosses protoactor remote with the message, so a target on another
// machine can drop work whose caller has already been answered; the two
// clocks are then compared, so they must agree to well within the deadline.
const DeadlineHeader = "tripwire-deadline"

// Dated is d if the DeadlineHeader can carry it, else zero (no header):
// the header's Unix nanoseconds end in 2262, and a later deadline, of a
// CallTimeout of "no timeout" (math.MaxInt64), would wrap to 1677 and be
// shed at once.
func Dated(d time.Time) time.Time {
	if d.After(latestDated) || d.Before(earliestDated) {
		return time.Time{}
	}
	return d
}

// The deadlines a DeadlineHeader can carry.
var (
	latestDated   = time.Unix(0, math.MaxInt64)
	earliestDated = time.Unix(0, math.MinInt64)
)

// Deadline reads the call deadline an ask put in header, reporting false if
// there is none or it does not parse.
func Deadline(header actor.ReadonlyMessageHeader) (time.Time, bool) {
	if header == nil {
		return time.Time{}, false
	}
	v := header.Get(DeadlineHeader)
	if v == "" {
		return time.Time{}, false
	}
	ns, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(0, ns), true
}
