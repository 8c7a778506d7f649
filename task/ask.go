package task

import (
	"fmt"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/errs"
)

// Ask is one request to an actor target. It is sent with a sender PID
// that names its Router and carries its own RequestId, so the target's reply
// comes back to it; it reports the first reply as an Outcome and ignores any
// later one.
type Ask struct {
	sys      *actor.ActorSystem
	router   *Router
	self     *actor.PID // the sender of the request: the router, with our RequestId
	replyTo  *actor.PID
	token    any
	classify Classifier
	done     atomic.Bool
	reply    any      // the target's reply, kept by receive
	failed   *Outcome // set by fail: the outcome without a reply
	out      Outcome  // what Outcome returns, so it allocates nothing
}

// Courier carries an Ask's outcome back to the breaker on a goroutine of its
// own choosing: it calls Outcome and sends the result to the breaker. Without
// one the outcome is made and sent on the target's goroutine, where the
// breaker's inline mailbox would then run and grow a fresh goroutine's
// stack on every reply.
type Courier interface {
	Deliver(*Ask)
}

// NewAsk sends msg to target with r's address and a fresh RequestId as its
// sender. The outcome goes to replyTo tagged with token, through token if it
// is a Courier. It never blocks; sending to a target that cannot take the
// message reports ErrTargetDown.
func NewAsk(r *Router, target *actor.PID, msg any, replyTo *actor.PID, token any, classify Classifier) *Ask {
	a := &Ask{}
	a.Start(r, target, msg, replyTo, token, classify)
	return a
}

// Start is NewAsk for an Ask that lives inside another value (a breaker's
// call), saving its allocation. An Ask is started once.
func (a *Ask) Start(r *Router, target *actor.PID, msg any, replyTo *actor.PID, token any, classify Classifier) {
	a.sys, a.router, a.replyTo, a.token, a.classify = r.sys, r, replyTo, token, classify
	// The system's address now: remote may have started after the router.
	// A PID of its own, not one kept in the Ask: a target may keep the
	// sender and answer again later, and that late answer must still name
	// this ask's RequestId (which the router then ignores), even after the
	// call holding this Ask has been reused.
	a.self = &actor.PID{Address: r.sys.ProcessRegistry.Address, Id: r.id, RequestId: r.add(a)}
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
	a.router.take(a.self.RequestId) // a reply after this finds no ask
	return a.done.CompareAndSwap(false, true)
}

// receive takes the target's reply, routed by the Router. It runs on the
// target's goroutine, which is often fresh with a small stack, so with a
// Courier it only keeps the reply and hands the ask over; Outcome does the
// rest on the courier's goroutine.
func (a *Ask) receive(message any) {
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
// answer, classified. Call it once, after the ask was delivered to its
// Courier.
func (a *Ask) Outcome() *Outcome {
	if a.failed != nil {
		return a.failed
	}
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

// fail ends the ask with err, as if the target had answered it.
func (a *Ask) fail(err error) {
	if !a.done.CompareAndSwap(false, true) {
		return
	}
	a.router.take(a.self.RequestId)
	o := &Outcome{Token: a.token, Err: err, Failed: true}
	if c, ok := a.token.(Courier); ok {
		a.failed = o
		c.Deliver(a)
		return
	}
	a.sys.Root.Send(a.replyTo, o)
}
