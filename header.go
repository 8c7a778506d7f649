package tripwire

import "github.com/tripwire-go/tripwire/task"

// WithoutDeadlineHeader is the actor target t with its calls sent without
// a DeadlineHeader, also to an actor on another machine, which then cannot
// read their deadlines: ShedExpired lets every call through there, and a
// program's own middleware sees no header. The breaker enforces every
// call's deadline as ever, and an actor on this machine still reads it
// (CallDeadline, ShedExpired): a local call carries it in its sender, not
// in a header. A function target carries its deadline in its context, not
// in a header: it is returned as it is, and so is a nil Target (which
// Register refuses). Checked keeps it.
func WithoutDeadlineHeader(t Target) Target { return withHeader(t, task.HeaderNever) }

// WithDeadlineHeader is the actor target t with every call sent with a
// DeadlineHeader, also to an actor on this machine, which reads its
// deadline without it (CallDeadline): for an actor whose own code reads the
// header, or that forwards its calls to another machine, where the sender
// cannot be read. The header costs each call about 360 bytes in 3
// allocations (BENCHMARKS.md). A function target, and a nil Target, are
// returned as they are, as by WithoutDeadlineHeader. Checked keeps it.
func WithDeadlineHeader(t Target) Target { return withHeader(t, task.HeaderAlways) }

// withHeader is the actor target t with header, or t itself if it is not
// one.
func withHeader(t Target, header task.Header) Target {
	spec, ok := specOf(t)
	if !ok || spec.pid == nil {
		return t
	}
	spec.header = header
	return spec
}
