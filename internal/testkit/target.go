package testkit

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/tripwire-go/tripwire"
)

// ErrTarget is what the scripted target fails with.
var ErrTarget = errors.New("target failed")

// Op tells the scripted target what to do with one call. The zero Op
// answers at once with Answer("").
type Op struct {
	Label string
	After time.Duration   // fake time spent in the target before answering
	Fail  bool            // fail with ErrTarget (wrapped with the Label, if any)
	Err   error           // answer with Value and this error (if set)
	Value any             // answer with this value (if set)
	Panic bool            // panic in the target
	Hang  bool            // wait for the call's context to end (see Hang)
	Stuck <-chan struct{} // ignore the context: wait until this is closed, then fail
	Gate  chan bool       // wait for a verdict: true goes on, false fails
}

// Answer is the scripted target's value for a successful Op with label:
// "ok" without a label, "done:<label>" with one.
func Answer(label string) string {
	if label == "" {
		return "ok"
	}
	return "done:" + label
}

// failure is the scripted target's error for a failing Op.
func (o Op) failure(how string) error {
	if o.Label == "" {
		return ErrTarget
	}
	return fmt.Errorf("%s%s: %w", o.Label, how, ErrTarget)
}

// Script is a function target driven by Op messages. It counts the calls
// that reached it, and the most that ran at once.
type Script struct {
	Calls   atomic.Int64
	Running atomic.Int64
	Peak    atomic.Int64
}

// Target returns the function target that carries out s's Ops.
func (s *Script) Target() tripwire.Target {
	return tripwire.FuncTarget(func(ctx context.Context, msg any) (any, error) {
		s.Calls.Add(1)
		n := s.Running.Add(1)
		defer s.Running.Add(-1)
		for p := s.Peak.Load(); n > p && !s.Peak.CompareAndSwap(p, n); p = s.Peak.Load() {
		}
		o, ok := msg.(Op)
		if !ok {
			return nil, fmt.Errorf("script: unexpected message %T", msg)
		}
		return o.run(ctx)
	})
}

func (o Op) run(ctx context.Context) (any, error) {
	switch {
	case o.Panic:
		panic("scripted panic: " + o.Label)
	case o.Hang:
		return Hang(ctx)
	case o.Stuck != nil:
		<-o.Stuck
		return nil, o.failure(" (stuck)")
	case o.Gate != nil:
		select {
		case ok := <-o.Gate:
			if !ok {
				return nil, o.failure("")
			}
		case <-ctx.Done():
			return Hang(ctx)
		}
	}
	time.Sleep(o.After)
	switch {
	case o.Err != nil:
		return o.Value, o.Err
	case o.Fail:
		return nil, o.failure("")
	case o.Value != nil:
		return o.Value, nil
	}
	return Answer(o.Label), nil
}

// Hang is a target that never answers by itself: it notices the end of its
// context a millisecond late, as real code does, so its late result never
// ties with the breaker's deadline timer at one instant.
func Hang(ctx context.Context) (any, error) {
	<-ctx.Done()
	time.Sleep(time.Millisecond)
	return nil, ctx.Err()
}
