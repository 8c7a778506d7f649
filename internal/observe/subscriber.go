package observe

import (
	"context"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire/state"
)

// subscriber delivers transitions to one callback on its own goroutine,
// from a bounded buffer.
type subscriber struct {
	fn      func(state.Transition)
	ch      chan state.Transition
	stopped atomic.Bool
	once    sync.Once
	done    chan struct{}
	dropped int64 // guarded by the hub's mutex
}

func newSubscriber(fn func(state.Transition), log *zap.Logger) *subscriber {
	s := &subscriber{fn: fn, ch: make(chan state.Transition, SubscriberBuffer), done: make(chan struct{})}
	go s.run(log)
	return s
}

// offer queues t, or drops it if the subscriber is SubscriberBuffer behind:
// it warns at the first drop of a run, at every SubscriberBuffer-th, and
// with the run's total at the first transition queued again. It runs under
// the hub's mutex, which also guards closing ch.
func (s *subscriber) offer(t state.Transition, log *zap.Logger) {
	select {
	case s.ch <- t:
		if s.dropped > 0 { // the end of a run of drops: its total
			log.Warn("subscriber caught up: transitions dropped", zap.Int64("dropped", s.dropped))
			s.dropped = 0
		}
	default:
		s.dropped++
		if s.dropped == 1 || s.dropped%SubscriberBuffer == 0 {
			log.Warn("subscriber falling behind: transitions dropped",
				zap.String("key", t.Key), zap.Int64("dropped", s.dropped))
		}
	}
}

func (s *subscriber) run(log *zap.Logger) {
	defer close(s.done)
	for t := range s.ch {
		if s.stopped.Load() {
			continue
		}
		s.call(t, log)
	}
}

func (s *subscriber) call(t state.Transition, log *zap.Logger) {
	defer func() {
		if r := recover(); r != nil {
			log.Error("subscriber panicked", zap.String("key", t.Key), zap.Any("panic", r))
		}
	}()
	s.fn(t)
}

// finish lets the subscriber deliver what it has buffered, then end.
func (s *subscriber) finish() {
	s.once.Do(func() { close(s.ch) })
}

// stop ends the subscriber; what it has buffered is not delivered, even
// if finish came first (an unsubscribe while the registry shuts down).
func (s *subscriber) stop() {
	s.stopped.Store(true)
	s.once.Do(func() { close(s.ch) })
}

func (s *subscriber) wait(ctx context.Context) error {
	select {
	case <-s.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
