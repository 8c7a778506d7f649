package tripwire

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/task"
)

// DeadlineHeader names the message header in which a call to an actor
// target carries its deadline: the Unix time in nanoseconds, in decimal. It
// crosses protoactor remote with the message. A target (or a receive
// middleware in front of it) can read it with CallDeadline and drop work
// whose caller has already been answered ErrTimeout. Across machines the
// two clocks are compared, so they must agree to well within the deadline.
const DeadlineHeader = task.DeadlineHeader

// CallDeadline reads the deadline a call put in a message's header (in an
// actor, ctx.MessageHeader()), reporting false if there is none.
func CallDeadline(header actor.ReadonlyMessageHeader) (time.Time, bool) {
	return task.Deadline(header)
}
