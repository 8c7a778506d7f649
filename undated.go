package tripwire

// WithoutDeadlineHeader is the actor target t with its calls sent without
// a DeadlineHeader. The breaker enforces every call's deadline as ever, but
// the actor cannot read it: ShedExpired lets every call through, and a program's
// own middleware sees no header. Each call saves the header's allocations,
// about 370 bytes (BENCHMARKS.md). Use it for an actor that neither sheds
// nor reads deadlines, at a high call rate. A function target carries its
// deadline in its context, not in a header: it is returned as it is, and so
// is a nil Target (which Register refuses). Checked keeps it.
func WithoutDeadlineHeader(t Target) Target {
	spec, ok := specOf(t)
	if !ok || spec.pid == nil {
		return t
	}
	spec.undated = true
	return spec
}
