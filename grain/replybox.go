package grain

import "github.com/asynkron/protoactor-go/actor"

// replyBox is a one-shot process a worker waits on: the first reply and the
// first Terminated of what it watches, each kept without blocking the
// sender; later ones are dropped. Grain calls register one per call rather
// than share the Router: a Terminated does not carry the watcher's
// RequestId back (protoactor's remote endpoint watcher rebuilds the watcher
// PID from its id alone), so a shared process could not tell whose grain died.
type replyBox struct {
	replies    chan any
	terminated chan actor.TerminatedReason
}

var _ actor.Process = (*replyBox)(nil)

func newReplyBox() *replyBox {
	return &replyBox{replies: make(chan any, 1), terminated: make(chan actor.TerminatedReason, 1)}
}

func (b *replyBox) SendUserMessage(_ *actor.PID, message any) {
	select {
	case b.replies <- message:
	default:
	}
}

func (b *replyBox) SendSystemMessage(_ *actor.PID, message any) {
	t, ok := message.(*actor.Terminated)
	if !ok {
		return
	}
	select {
	case b.terminated <- t.Why:
	default:
	}
}

func (b *replyBox) Stop(*actor.PID) {}

// notFound reports whether the watch's Terminated has come, saying no
// actor was there.
func (b *replyBox) notFound() bool {
	select {
	case why := <-b.terminated:
		return why == actor.TerminatedReason_NotFound
	default:
		return false
	}
}
