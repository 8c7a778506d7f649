package task

import (
	"fmt"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/errs"
)

// Ask is one request to an actor target. It is a process registered in the
// actor system under a fresh id and given to the target as the request's
// sender, so the target's reply comes straight back to it; it reports the
// first reply as an Outcome and ignores any later one.
type Ask struct {
	sys      *actor.ActorSystem
	self     *actor.PID
	replyTo  *actor.PID
	token    any
	classify Classifier
	done     atomic.Bool
	reply    any      // the target's reply, kept by SendUserMessage
	failed   *Outcome // set by fail: the outcome without a reply
	out      Outcome  // what Outcome returns, so it allocates nothing
}

var _ actor.Process = (*Ask)(nil)

// Courier carries an Ask's outcome back to the breaker on a goroutine of its
// own choosing: it calls Outcome and sends the result to the breaker. Without
// one the outcome is made and sent on the target's goroutine, where the
// breaker's inline mailbox would then run and grow a fresh goroutine's
// stack on every reply.
type Courier interface {
	Deliver(*Ask)
}

// NewAsk sends msg to target with a fresh reply process as its sender. The
// outcome goes to replyTo tagged with token, through token if it is a
// Courier. It never blocks; sending to a
// target that cannot take the message reports ErrTargetDown.
func NewAsk(sys *actor.ActorSystem, target *actor.PID, msg any, replyTo *actor.PID, token any, classify Classifier) *Ask {
	a := &Ask{}
	a.Start(sys, target, msg, replyTo, token, classify)
	return a
}

// Start is NewAsk for an Ask that lives inside another value (a breaker's
// call), saving its allocation. An Ask is started once.
func (a *Ask) Start(sys *actor.ActorSystem, target *actor.PID, msg any, replyTo *actor.PID, token any, classify Classifier) {
	a.sys, a.replyTo, a.token, a.classify = sys, replyTo, token, classify
	a.self, _ = sys.ProcessRegistry.Add(a, "tripwire$"+sys.ProcessRegistry.NextId())
	a.send(target, msg)
}

func (a *Ask) send(target *actor.PID, msg any) {
	defer func() {
		// protoactor can panic in the sender when the target is being spawned
		// under the same name at this moment (asynkron/protoactor-go#198).
		if r := recover(); r != nil {
			a.fail(fmt.Errorf("%w: send failed: %v", errs.ErrTargetDown, r))
		}
	}()
	a.sys.Root.RequestWithCustomSender(target, msg, a.self)
}

// Abandon drops the ask without reporting: a late reply is ignored. It
// reports false if the reply had already come (its outcome is on its way).
func (a *Ask) Abandon() bool {
	// Unregister whether or not the reply came: its courier may never run.
	a.sys.ProcessRegistry.Remove(a.self)
	return a.done.CompareAndSwap(false, true)
}

// SendUserMessage receives the target's reply. It runs on the target's
// goroutine, which is often fresh with a small stack, so with a Courier it
// only keeps the reply and hands the ask over; Outcome does the rest on the
// courier's goroutine.
func (a *Ask) SendUserMessage(_ *actor.PID, message any) {
	if !a.done.CompareAndSwap(false, true) {
		return // a second reply, or abandoned
	}
	a.reply = message
	if c, ok := a.token.(Courier); ok {
		c.Deliver(a)
		return
	}
	a.sys.Root.Send(a.replyTo, a.Outcome())
}

// Outcome turns the reply into the ask's Outcome: the target's value, its
// error value as the error, or ErrTargetDown for protoactor's dead-letter
// answer, classified. It unregisters the ask's process. Call it once, after
// the ask was delivered to its Courier.
func (a *Ask) Outcome() *Outcome {
	if a.failed != nil {
		return a.failed
	}
	a.sys.ProcessRegistry.Remove(a.self)
	o := &a.out
	*o = Outcome{Token: a.token}
	msg := actor.UnwrapEnvelopeMessage(a.reply)
	switch m := msg.(type) {
	case *actor.DeadLetterResponse:
		o.Err, o.Failed = errs.ErrTargetDown, true
		return o
	case error:
		o.Err = m
	default:
		o.Value = msg
	}
	a.classify.classify(o)
	return o
}

// SendSystemMessage ignores system messages: an ask watches nothing.
func (a *Ask) SendSystemMessage(*actor.PID, any) {}

// Stop abandons the ask.
func (a *Ask) Stop(*actor.PID) { a.Abandon() }

// fail ends the ask with err, as if the target had answered it.
func (a *Ask) fail(err error) {
	if !a.done.CompareAndSwap(false, true) {
		return
	}
	a.sys.ProcessRegistry.Remove(a.self)
	o := &Outcome{Token: a.token, Err: err, Failed: true}
	if c, ok := a.token.(Courier); ok {
		a.failed = o
		c.Deliver(a)
		return
	}
	a.sys.Root.Send(a.replyTo, o)
}
