package chaos

import (
	"context"
	"time"

	"github.com/tripwire-go/tripwire"
)

// Func returns a function target that follows the script and then calls
// inner (nil: answer with the message itself).
func (s *Script) Func(inner Func) tripwire.Target {
	return tripwire.FuncTarget(s.Wrap(inner))
}

// Wrap returns inner (nil: answer with the message itself) following the
// script, as a plain function: wrap it further, or give it to
// tripwire.FuncTarget.
func (s *Script) Wrap(inner Func) Func {
	if inner == nil {
		inner = echo
	}
	return func(ctx context.Context, msg any) (any, error) {
		f := s.enter(nil)
		if f.kind == down {
			return nil, s.outcome(f)
		}
		if f.gate != nil {
			<-f.gate // a hung call ignores its context
		}
		if f.delay > 0 {
			t := time.NewTimer(f.delay)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return nil, ctx.Err()
			}
		}
		if err := s.outcome(f); err != nil {
			return nil, err
		}
		return inner(ctx, msg)
	}
}
