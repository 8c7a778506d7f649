package grain

import (
	"context"

	"github.com/asynkron/protoactor-go/actor"
)

// notThere reports whether the dead letter that answered a call's message
// to pid says that no actor was there — rather than that the grain
// forwarded the message to an actor that is gone: a forward keeps the
// call's sender, and protoactor's answer does not say which. A message
// that reached the grain must never be sent again.
//
// A local grain's watch tells: protoactor answers the watch of an actor
// that is not there, NotFound, before the message sent after it. A remote
// watch of an actor that is not there is never answered, or answered
// Stopped, so notThere asks the address itself with a Touch, which an
// actor answers without its program (protoactor's auto-response; the
// actor's Receive sees the Touch too): a second dead letter says nothing is
// there, a Touched that the grain is. ctx ending first is "it may be
// there". ended is the watch's Terminated, if notThere took it; one but
// NotFound and Stopped (its member is gone) ends the wait, and is the
// call's end.
//
// One case stays open: a grain that forwards the message to an actor that
// is gone and then stops itself before the Touch comes gets the message
// again.
func (g *caller) notThere(ctx context.Context, pid, self *actor.PID, box *replyBox) (notThere bool, ended *actor.TerminatedReason) {
	sys := g.cluster.ActorSystem
	if box.notFound() {
		return true, nil
	}
	if pid.Address == sys.Address() {
		return false, nil // the watch reached an actor there
	}
	sys.Root.RequestWithCustomSender(pid, &actor.Touch{}, self)
	terminated := box.terminated
	for {
		select {
		case reply := <-box.replies:
			_, dead := actor.UnwrapEnvelopeMessage(reply).(*actor.DeadLetterResponse)
			return dead, ended
		case why := <-terminated:
			ended, terminated = &why, nil
			if why != actor.TerminatedReason_Stopped { // before or after the message: the Touch tells
				return why == actor.TerminatedReason_NotFound, ended
			}
		case <-ctx.Done():
			return false, ended
		}
	}
}
