package task

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/borrowed"
)

// cacheProcess makes pid, fresh and not yet shared, name proc without a
// lookup (borrowed.CachePIDProcess): a target answering an ask through its
// sender PID then finds the router without reading the process registry (a
// map under a lock) and without PID.ref allocating, on the target's
// goroutine, whose stack is often fresh and small (the allocation grew
// it). proc must live as long as the PID: the sender's own, which the PID
// lies in. A protoactor whose PID caches no process names the router by
// its Id, through the registry.
func cacheProcess(pid *actor.PID, proc *actor.Process) {
	borrowed.CachePIDProcess(pid, proc)
}

// SenderDeadline is the deadline of the call whose ask was sent with pid
// (the sender of a message, or a copy of it), or false if pid is no ask's
// sender on this machine or the call has none: the sender an ask's PID
// caches as its process holds it.
func SenderDeadline(pid *actor.PID) (time.Time, bool) {
	s, ok := borrowed.PIDProcess(pid).(*sender)
	if !ok || s.deadline == 0 {
		return time.Time{}, false
	}
	return time.Unix(0, s.deadline), true
}
