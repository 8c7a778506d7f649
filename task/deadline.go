package task

import (
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
