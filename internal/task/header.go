package task

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/borrowed"
)

// Header says which asks carry their call's deadline in the
// DeadlineHeader as well as in their sender (SenderDeadline).
type Header uint8

const (
	// HeaderRemote: asks to a target on another machine, which cannot read
	// the sender; a local target reads the deadline from the sender, which
	// costs an ask nothing, where a header costs it a map (about 360 bytes
	// in 3 allocations).
	HeaderRemote Header = iota
	// HeaderAlways: every ask, for a local target that reads the header
	// itself or forwards its calls to another machine.
	HeaderAlways
	// HeaderNever: no ask.
	HeaderNever
)

// sends reports whether an ask to target, in a system whose address is
// local, carries the header.
func (h Header) sends(target *actor.PID, local string) bool {
	switch h {
	case HeaderAlways:
		return true
	case HeaderNever:
		return false
	}
	// protoactor's own test of a local PID (ProcessRegistryValue.Get); a
	// protoactor whose PID caches no process leaves the sender unreadable.
	return !borrowed.CanCachePIDProcess() || (target.Address != "nonhost" && target.Address != local)
}
