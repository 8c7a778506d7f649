package tripwire

import (
	"context"

	"github.com/tripwire-go/tripwire/internal/hook"
	"github.com/tripwire-go/tripwire/internal/task"
)

// What the module's other packages may do without an export of the root
// (internal/hook).
func init() {
	hook.WithHeader = func(t any, mode int) any {
		target, ok := t.(Target)
		if !ok {
			return t
		}
		switch mode {
		case hook.HeaderAlways:
			return withHeader(target, task.HeaderAlways)
		case hook.HeaderNever:
			return withHeader(target, task.HeaderNever)
		}
		return t
	}
	hook.Crash = func(ctx context.Context, reg any, key string) error {
		r, _ := reg.(*Registry)
		if r == nil {
			return errNoRegistry
		}
		return r.crash(ctx, key)
	}
	hook.Workers = func(reg any) int {
		r, _ := reg.(*Registry)
		return r.workers()
	}
}

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
