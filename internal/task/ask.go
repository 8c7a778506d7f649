package task

import (
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/errs"
)

// Ask is one request to an actor target, sent with a sender PID naming its
// Router and carrying its own RequestId, so the target's reply comes back to
// it: the first reply is its Completion, any later one is ignored.
type Ask struct {
	sys      *actor.ActorSystem
	router   *Router
	self     *actor.PID // the sender of the request: the router, with our RequestId
	call     Call       // carries the reply back; the Completion's
	classify Classifier
	deadline time.Time // the call's, in its sender and maybe its DeadlineHeader
	header   bool      // the envelope carries the DeadlineHeader
	done     atomic.Bool
	reply    any         // the target's reply, kept by receive
	failed   *Completion // set by fail: the outcome without a reply
	out      Completion  // what Completion returns, so it allocates nothing
}

// Start sends msg to target through s, its sender a PID of p's Router with
// a fresh RequestId, carrying the call's deadline (if any), and in the
// DeadlineHeader too where header says so; the reply goes to call
// (Call.Deliver). It never blocks; a target that cannot take the message is
// ErrTargetDown. An Ask lives in another value (a call) and is started
// again once its router let go of it (it was answered or abandoned).
func (a *Ask) Start(p *Pool, s *Sender, target *actor.PID, msg any, deadline time.Time, header Header, call Call, classify Classifier) {
	r := p.replies
	*a = Ask{sys: r.sys, router: r, call: call, classify: classify, deadline: Dated(deadline)} // made whole: a call's Ask is used again
	a.header = !a.deadline.IsZero() && header.sends(target, r.sys.ProcessRegistry.Address)
	// The system's address now: remote may have started after the router.
	// A PID of its own, not one kept in the Ask: a target may keep the
	// sender and answer again later, and that late answer must still name
	// this ask's RequestId (which the router then ignores), even after the
	// call holding this Ask has been reused.
	snd := r.newSender(a)
	a.self = &snd.pid
	// Entered only now, whole: a breaker may find it among the router's
	// waiting asks (Router.Waiting) and abandon it on another goroutine.
	r.enter(snd)
	s.send(p, a, target, msg)
}

// deliver hands msg to the target's process with the ask as its sender.
func (a *Ask) deliver(proc actor.Process, target *actor.PID, msg any) {
	defer func() {
		// protoactor can panic in the sender when the target is being spawned
		// under the same name at this moment (asynkron/protoactor-go#198).
		if r := recover(); r != nil {
			a.fail(fmt.Errorf("%w: send failed: %v", errs.ErrTargetDown, r))
		}
	}()
	proc.SendUserMessage(target, a.envelope(msg))
}

// envelope is msg as the ask sends it: with its sender PID, and its
// deadline in the DeadlineHeader if it carries one.
func (a *Ask) envelope(msg any) *actor.MessageEnvelope {
	env := &actor.MessageEnvelope{Message: msg, Sender: a.self}
	if a.header {
		env.Header = map[string]string{DeadlineHeader: strconv.FormatInt(a.deadline.UnixNano(), 10)}
	}
	return env
}

// Abandon drops the ask without reporting: a late reply is ignored. It
// reports false if the reply had already come (its outcome is on its way).
func (a *Ask) Abandon() bool {
	a.router.take(a.self.RequestId) // a reply after this finds no ask
	if !a.done.CompareAndSwap(false, true) {
		return false
	}
	a.call.Release()
	return true
}

// Call is the call the ask is for.
func (a *Ask) Call() Call { return a.call }

// Classifies reports whether the ask's outcome is judged by a classifier of
// the key's own (user code), which must run on a worker.
func (a *Ask) Classifies() bool { return a.classify != nil }

// receive takes the target's reply, on the target's goroutine (often fresh
// with a small stack): it keeps the reply and hands the ask to its call's
// caller (Call.Deliver), whose goroutine makes the Completion.
func (a *Ask) receive(message any) {
	if !a.done.CompareAndSwap(false, true) {
		return // a second reply, or abandoned
	}
	a.call.Release()
	a.reply = message
	a.call.Deliver(a)
}

// Completion is the ask's reply as a Completion, classified: the target's
// value, its error value as the error, or ErrTargetDown for a dead letter.
// Call it once, after the ask was delivered.
func (a *Ask) Completion() *Completion {
	if a.failed != nil {
		return a.failed
	}
	o := &a.out
	*o = Completion{Call: a.call}
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
	a.call.Release()
	a.failed = &Completion{Call: a.call, Err: err, Failed: true}
	a.call.Deliver(a)
}
