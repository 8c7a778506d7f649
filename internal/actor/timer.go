package actor

import "time"

// timer is a message a breaker sends itself after a while (a recovery
// timer, a deadline tick, an idle check). It is meant for the incarnation
// that armed it, which tags it: a mailbox with no breaker running drops it,
// so a stale timer never wakes a passivated key.
type timer interface{ ownTimer() }

func (*recoveryTimer) ownTimer() {}
func (*deadlineTick) ownTimer()  {}
func (*idleCheck) ownTimer()     {}

// after posts msg to the key's mailbox after d, unless the returned func
// stops it first. It goes through no PID: a breaker's timers reach its
// mailbox whichever actor serves the key by then.
func (b *breaker) after(d time.Duration, msg timer) (stop func() bool) {
	mb := &b.cfg.Mailbox
	return time.AfterFunc(d, func() { mb.PostUserMessage(msg) }).Stop
}
