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
}

var _ actor.Process = (*Ask)(nil)

// Courier carries an Ask's outcome back to the breaker on a goroutine of its
// own choosing. Without one the outcome is sent to the breaker directly — on
// the target's goroutine, where the breaker's synchronized mailbox would then
// run and grow a fresh goroutine's stack on every reply.
type Courier interface {
	Deliver(*Outcome)
}

// NewAsk sends msg to target with a fresh reply process as its sender. The
// outcome goes to replyTo tagged with token, through token if it is a
// Courier. It never blocks; sending to a
// target that cannot take the message reports ErrTargetDown.
func NewAsk(sys *actor.ActorSystem, target *actor.PID, msg any, replyTo *actor.PID, token any, classify Classifier) *Ask {
	a := &Ask{sys: sys, replyTo: replyTo, token: token, classify: classify}
	a.self, _ = sys.ProcessRegistry.Add(a, "tripwire$"+sys.ProcessRegistry.NextId())
	a.send(target, msg)
	return a
}

func (a *Ask) send(target *actor.PID, msg any) {
	defer func() {
		// protoactor can panic in the sender when the target is being spawned
		// under the same name at this moment (asynkron/protoactor-go#198).
		if r := recover(); r != nil {
			a.finish(Outcome{Err: fmt.Errorf("%w: send failed: %v", errs.ErrTargetDown, r), Failed: true})
		}
	}()
	a.sys.Root.RequestWithCustomSender(target, msg, a.self)
}

// Abandon drops the ask without reporting: a late reply is ignored. It
// reports false if the reply had already come (its outcome is on its way).
func (a *Ask) Abandon() bool {
	if !a.done.CompareAndSwap(false, true) {
		return false
	}
	a.sys.ProcessRegistry.Remove(a.self)
	return true
}

// SendUserMessage receives the target's reply.
func (a *Ask) SendUserMessage(_ *actor.PID, message any) {
	msg := actor.UnwrapEnvelopeMessage(message)
	if _, down := msg.(*actor.DeadLetterResponse); down {
		a.finish(Outcome{Err: errs.ErrTargetDown, Failed: true})
		return
	}
	var err error
	if e, ok := msg.(error); ok {
		msg, err = nil, e
	}
	o := Outcome{Value: msg, Err: err}
	a.classify.classify(&o)
	a.finish(o)
}

// SendSystemMessage ignores system messages: an ask watches nothing.
func (a *Ask) SendSystemMessage(*actor.PID, any) {}

// Stop abandons the ask.
func (a *Ask) Stop(*actor.PID) { a.Abandon() }

func (a *Ask) finish(o Outcome) {
	if !a.done.CompareAndSwap(false, true) {
		return
	}
	a.sys.ProcessRegistry.Remove(a.self)
	o.Token = a.token
	if c, ok := a.token.(Courier); ok {
		c.Deliver(&o)
		return
	}
	a.sys.Root.Send(a.replyTo, &o)
}
