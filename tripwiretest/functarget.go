package tripwiretest

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/tripwire-go/tripwire"
)

// Func returns a function target that follows the script and then calls
// inner (nil: answer with the message itself), or carries out the call's
// Op.
func (s *Script) Func(inner Func) tripwire.Target {
	return tripwire.Func(s.Wrap(inner))
}

// Wrap returns inner (nil: answer with the message itself) following the
// script, as a plain function: wrap it further, or give it to
// tripwire.Func. A call whose message is an Op carries it out instead
// of calling inner.
func (s *Script) Wrap(inner Func) Func {
	if inner == nil {
		inner = echo
	}
	return func(ctx context.Context, msg any) (any, error) {
		s.peak.observe(s.running.Add(1))
		defer s.running.Add(-1)
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
		if o, ok := opOf(msg); ok {
			return s.do(ctx, o, f.n)
		}
		return inner(ctx, msg)
	}
}

// Running is how many calls are in the script's function targets now (Func,
// Wrap); an actor target takes one message at a time and is not counted.
func (s *Script) Running() int64 { return s.running.Load() }

// Peak is the most calls that were in the script's function targets at
// once.
func (s *Script) Peak() int64 { return s.peak.Load() }

// highMark is the highest value it has observed.
type highMark struct{ atomic.Int64 }

func (h *highMark) observe(v int64) {
	for p := h.Load(); v > p && !h.CompareAndSwap(p, v); p = h.Load() {
	}
}
