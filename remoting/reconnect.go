package remoting

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/eventstream"
	"github.com/asynkron/protoactor-go/remote"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// staleGrace is how long past the deadline of the calls a key had out when
// its node reconnected an opening of its circuit is still taken for their
// doing: the breaker answers a call by its deadline plus
// tripwire.ReplyGrace, and a loaded machine is late by some more.
const staleGrace = 250 * time.Millisecond

// ProbeOnReconnect makes the breakers of reg in front of actors on other
// nodes probe as soon as protoactor's remote on sys connects to their node,
// instead of waiting out their OpenTimeout: once a partition heals or a
// node restarts, they close with the next call, as soon as a message can
// reach the node. It follows protoactor's *remote.EndpointConnectedEvent
// on sys's event stream:
//
//   - every open circuit whose target is an actor at the connected address
//     is half-opened (Registry.ProbeNow), so its next call is a probe;
//   - a circuit that is half-open or closed then, with calls out that were
//     sent before the connection, is half-opened when their failures open
//     it (if they do by their deadline), once.
//
// Work per connection is in proportion to the keys on that node
// (Filter.Address). Stop it with stop, which returns once its goroutine
// has ended. A nil reg or sys is tripwire.ErrInvalidOption.
func ProbeOnReconnect(reg *tripwire.Registry, sys *actor.ActorSystem) (stop func(), err error) {
	if reg == nil || sys == nil || sys.EventStream == nil {
		return nil, fmt.Errorf("%w: ProbeOnReconnect needs a registry and an actor system", tripwire.ErrInvalidOption)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &prober{
		reg: reg, ctx: ctx, cancel: cancel,
		pending: map[string]time.Time{}, wake: make(chan struct{}, 1), done: make(chan struct{}),
	}
	// The handler runs on the publisher's goroutine, protoactor's endpoint
	// writer in the middle of connecting: hand the address to run.
	p.sub = sys.EventStream.Subscribe(func(ev any) {
		if c, ok := ev.(*remote.EndpointConnectedEvent); ok {
			p.post(connected(c.Address))
		}
	})
	p.unsub = reg.Subscribe(p.opened)
	go p.run()
	var once sync.Once
	return func() {
		once.Do(func() {
			sys.EventStream.Unsubscribe(p.sub)
			p.unsub()
			p.cancel()
		})
		<-p.done
	}, nil
}

// connected is a node's address protoactor connected to, for run.
type connected string

// reprobe is a key to probe, for run.
type reprobe string

// prober is ProbeOnReconnect's state.
type prober struct {
	reg    *tripwire.Registry
	ctx    context.Context // ended by stop
	cancel context.CancelFunc
	sub    *eventstream.Subscription
	unsub  func()
	wake   chan struct{} // cap 1: the queue has work
	done   chan struct{} // closed when run returns

	mu      sync.Mutex
	queue   []any                // connected and reprobe, for run
	pending map[string]time.Time // key: until when its opening is probed at once
}

// post queues ev for run.
func (p *prober) post(ev any) {
	p.mu.Lock()
	p.queue = append(p.queue, ev)
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// run handles the queued events in order until stop.
func (p *prober) run() {
	defer close(p.done)
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-p.wake:
		}
		p.mu.Lock()
		batch := p.queue
		p.queue = nil
		p.mu.Unlock()
		for _, ev := range batch {
			if p.ctx.Err() != nil {
				return
			}
			switch ev := ev.(type) {
			case connected:
				p.reconnected(string(ev))
			case reprobe:
				_ = p.reg.ProbeNow(p.ctx, string(ev)) // not open any more, unknown, shut down: nothing to do
			}
		}
	}
}

// reconnected probes the open circuits of the keys on addr, and marks
// those with calls out as pending: their opening, if the calls fail, is
// probed at once.
func (p *prober) reconnected(addr string) {
	now := time.Now()
	var open []string
	pend := map[string]time.Time{}
	_ = p.reg.Snapshots(p.ctx, tripwire.Filter{Address: addr}, func(s tripwire.Snapshot) bool {
		switch {
		case s.State == state.Open:
			open = append(open, s.Key)
		case s.InFlight > 0:
			pend[s.Key] = now.Add(s.Settings.CallTimeout + tripwire.ReplyGrace + staleGrace)
		}
		return true
	}) // stopped, shut down, a breaker that did not answer: what was listed is probed
	p.mu.Lock()
	for k, until := range p.pending {
		if until.Before(now) {
			delete(p.pending, k)
		}
	}
	for k, until := range pend {
		p.pending[k] = until
	}
	p.mu.Unlock()
	for _, k := range open {
		_ = p.reg.ProbeNow(p.ctx, k)
	}
	// A pending key whose calls failed between its snapshot and now opened
	// before opened could see it pending.
	for k := range pend {
		if st, err := p.reg.State(k); err == nil && st == state.Open && p.take(k, time.Now()) {
			_ = p.reg.ProbeNow(p.ctx, k)
		}
	}
}

// opened, the registry's subscriber, queues a probe of a pending key's
// circuit that opened in time.
func (p *prober) opened(tr state.Transition) {
	if tr.To == state.Open && p.take(tr.Key, tr.At) {
		p.post(reprobe(tr.Key))
	}
}

// take reports whether key is pending at, and makes it no longer pending:
// one probe per reconnection.
func (p *prober) take(key string, at time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	until, ok := p.pending[key]
	if ok {
		delete(p.pending, key)
	}
	return ok && !at.After(until)
}
