package remoting

import (
	"fmt"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/hook"
	"github.com/tripwire-go/tripwire/internal/task"
)

// DeadlineHeader names the message header in which a call to an actor
// target on another machine carries its deadline: the Unix time in
// nanoseconds, in decimal. It crosses protoactor remote with the message. A
// target (or a receive middleware in front of it, ShedExpired) can read it
// with CallDeadline and drop work whose caller has already been answered
// tripwire.ErrTimeout. Across machines the two clocks are compared, so they must
// agree to well within the deadline. A call to an actor on this machine
// carries its deadline in its sender instead, which costs it nothing, where
// the header costs a map; WithDeadlineHeader sends it with the header too,
// and WithoutDeadlineHeader sends no call of a target with it.
const DeadlineHeader = "tripwire-deadline" // task.DeadlineHeader, which the asks set

// CallDeadline reads the deadline of the call that sent a message, from
// its header and its sender: in an actor, CallDeadline(c.MessageHeader(),
// c.Sender()); in a receive middleware, CallDeadline(env.Header,
// env.Sender). It reports false if neither has one. The DeadlineHeader is
// read first (a call from another machine, or one sent with
// WithDeadlineHeader or DeadlineEnvelope); then the sender, which carries
// the deadline of a Tripwire call on this machine, also when the message
// was forwarded with it (c.Forward) or sent on with it as the custom
// sender. A nil header or sender is read as none.
func CallDeadline(header actor.ReadonlyMessageHeader, sender *actor.PID) (time.Time, bool) {
	if d, ok := task.Deadline(header); ok {
		return d, true
	}
	return task.SenderDeadline(sender)
}

// DeadlineEnvelope is msg in an envelope that carries deadline in its
// DeadlineHeader and sender as the reply address (nil: nobody waits for a
// reply), for a caller outside Tripwire whose target runs ShedExpired. Send
// it as it is — actor.Context.Send or RootContext.Send: protoactor's
// Request and RequestFuture would wrap it in an envelope of their own — to
// a PID that replies to sender, such as a future's (actor.NewFuture), and
// wait no longer than deadline. A nil message, one that is already an
// envelope, or a zero deadline, or one after 2262 (the header's nanoseconds
// end then: send such a message without the header) is tripwire.ErrInvalidMessage.
func DeadlineEnvelope(msg any, sender *actor.PID, deadline time.Time) (*actor.MessageEnvelope, error) {
	switch msg.(type) {
	case nil:
		return nil, fmt.Errorf("%w: nil message", tripwire.ErrInvalidMessage)
	case *actor.MessageEnvelope:
		return nil, fmt.Errorf("%w: the message is an envelope already", tripwire.ErrInvalidMessage)
	}
	if deadline.IsZero() {
		return nil, fmt.Errorf("%w: zero deadline", tripwire.ErrInvalidMessage)
	}
	if task.Dated(deadline).IsZero() {
		return nil, fmt.Errorf("%w: deadline %v is past what the header can carry (2262)", tripwire.ErrInvalidMessage, deadline)
	}
	env := &actor.MessageEnvelope{Message: msg, Sender: sender}
	env.SetHeader(DeadlineHeader, strconv.FormatInt(deadline.UnixNano(), 10))
	return env, nil
}

// WithoutDeadlineHeader is the actor target t with its calls sent without
// a DeadlineHeader, also to an actor on another machine, which then cannot
// read their deadlines: ShedExpired lets every call through there, and a
// program's own middleware sees no header. The breaker enforces every
// call's deadline as ever, and an actor on this machine still reads it
// (CallDeadline, ShedExpired): a local call carries it in its sender, not
// in a header. A function target carries its deadline in its context, not
// in a header: it is returned as it is, and so is a nil Target (which
// Register refuses). tripwire.Checked keeps it.
func WithoutDeadlineHeader(t tripwire.Target) tripwire.Target {
	return withHeader(t, hook.HeaderNever)
}

// WithDeadlineHeader is the actor target t with every call sent with a
// DeadlineHeader, also to an actor on this machine, which reads its
// deadline without it (CallDeadline): for an actor whose own code reads the
// header, or that forwards its calls to another machine, where the sender
// cannot be read. The header costs each call about 360 bytes in 3
// allocations (BENCHMARKS.md). A function target, and a nil Target, are
// returned as they are, as by WithoutDeadlineHeader. tripwire.Checked keeps
// it.
func WithDeadlineHeader(t tripwire.Target) tripwire.Target {
	return withHeader(t, hook.HeaderAlways)
}

func withHeader(t tripwire.Target, mode int) tripwire.Target {
	if t == nil {
		return nil
	}
	return hook.WithHeader(t, mode).(tripwire.Target)
}
