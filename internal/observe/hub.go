package observe

import (
	"context"
	"sync"

	"github.com/asynkron/protoactor-go/actor"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/state"
)

// SubscriberBuffer is how many transitions a subscriber may fall behind
// before further ones are dropped for it (and counted in a Warn log line).
const SubscriberBuffer = 1024

// Hub receives transitions and restarts from breakers and the supervisor
// and delivers them, in order, on its own goroutine: to subscribers, to the
// actor system's EventStream, as metrics and as spans. Handing one to the
// hub never blocks: its queue is unbounded, and transitions are rare.
type Hub struct {
	sys     *actor.ActorSystem
	log     *zap.Logger
	metrics *Metrics     // nil: no metrics
	tracer  trace.Tracer // nil: no spans

	mu     sync.Mutex
	queue  []item
	subs   map[uint64]*subscriber
	nextID uint64
	closed bool

	wake chan struct{}
	done chan struct{}
	wg   sync.WaitGroup
}

type item struct {
	t state.Transition
}

var _ tactor.Listener = (*Hub)(nil)

// NewHub starts a hub. metrics and tracer may be nil.
func NewHub(sys *actor.ActorSystem, log *zap.Logger, metrics *Metrics, tracer trace.Tracer) *Hub {
	h := &Hub{
		sys: sys, log: log.Named("events"), metrics: metrics, tracer: tracer,
		subs: map[uint64]*subscriber{}, wake: make(chan struct{}, 1), done: make(chan struct{}),
	}
	h.wg.Add(1)
	go h.run()
	return h
}

// Transitioned queues t for delivery.
func (h *Hub) Transitioned(t state.Transition) { h.push(item{t: t}) }

// Restarted counts a breaker restart in the restarts metric, at once: a
// program that crashed a breaker (Registry.Crash) and got it back reads it
// counted.
func (h *Hub) Restarted(key string, _ any) { h.restarted(key) }

func (h *Hub) push(it item) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.queue = append(h.queue, it)
	h.mu.Unlock()
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

func (h *Hub) run() {
	defer h.wg.Done()
	for {
		select {
		case <-h.wake:
		case <-h.done:
			h.drain()
			return
		}
		h.drain()
	}
}

func (h *Hub) drain() {
	for {
		h.mu.Lock()
		batch := h.queue
		h.queue = nil
		h.mu.Unlock()
		if len(batch) == 0 {
			return
		}
		for _, it := range batch {
			h.deliver(it.t)
		}
	}
}

func (h *Hub) restarted(key string) {
	if h.metrics != nil {
		h.metrics.restarted(key)
	}
}

func (h *Hub) deliver(t state.Transition) {
	if h.metrics != nil {
		h.metrics.transitioned(t)
	}
	if h.tracer != nil {
		span(h.tracer, t)
	}
	published := t
	h.sys.EventStream.Publish(&published)

	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.subs {
		s.offer(t, h.log)
	}
}

// Subscribe calls fn with every later transition, in order, on a goroutine
// of its own. The returned func stops delivery; a call of fn already under
// way may still finish.
func (h *Hub) Subscribe(fn func(state.Transition)) (unsubscribe func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || fn == nil {
		return func() {}
	}
	h.nextID++
	id := h.nextID
	s := newSubscriber(fn, h.log)
	h.subs[id] = s
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			delete(h.subs, id)
			h.mu.Unlock()
			s.stop()
		})
	}
}

// Close delivers what is queued — to subscribers too, however far behind —
// stops the hub and every subscriber, and waits for them until ctx ends.
func (h *Hub) Close(ctx context.Context) error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	h.mu.Unlock()
	close(h.done)
	h.wg.Wait()

	h.mu.Lock()
	subs := h.subs
	h.subs = map[uint64]*subscriber{}
	h.mu.Unlock()
	for _, s := range subs {
		s.finish()
	}
	var err error
	if h.metrics != nil {
		err = h.metrics.Close()
	}
	for _, s := range subs {
		if werr := s.wait(ctx); werr != nil {
			return werr
		}
	}
	return err
}

func span(tr trace.Tracer, t state.Transition) {
	_, s := tr.Start(context.Background(), "tripwire."+operation(t),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithTimestamp(t.At),
		trace.WithAttributes(
			AttrKey.String(t.Key), AttrFrom.String(t.From.String()), AttrTo.String(t.To.String()),
			AttrReason.String(t.Reason.String()), AttrFailures.Int(t.Failures)))
	s.End(trace.WithTimestamp(t.At))
}

// operation names a transition's span: a fresh trip is told apart from a
// re-trip, and an operator's action from the breaker's own decisions.
func operation(t state.Transition) string {
	switch t.Reason {
	case state.ReasonForcedOpen, state.ReasonForcedClosed, state.ReasonUpdated:
		return t.Reason.String() // an operator's action, named as such
	case state.ReasonReset:
		return "manual_reset" // "reset" is a probe closing the circuit
	}
	switch {
	case t.Reason == state.ReasonRestarted:
		return "restart"
	case t.To == state.Open && t.Fresh:
		return "trip"
	case t.To == state.Open:
		return "re_trip"
	case t.To == state.HalfOpen:
		return "half_open"
	default:
		return "reset"
	}
}
