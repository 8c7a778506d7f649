package grain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/eventstream"

	"github.com/tripwire-go/tripwire"
)

// ErrStopped: Failover.Target after Failover.Stop.
var ErrStopped = errors.New("grain: failover stopped")

// staleGrace is how long past the latest deadline of the calls a key had
// out when its grain's member left an Open transition is still taken for
// their doing: the breaker answers a call by its deadline plus
// tripwire.ReplyGrace, and a loaded machine is late by some more.
const staleGrace = 250 * time.Millisecond

// Failover makes the breakers of the grain targets it made probe as soon
// as the cluster's topology shows that the member their grain lived on is
// gone, instead of waiting for their OpenTimeout. It follows protoactor's
// *cluster.ClusterTopology events on the member's event stream:
//
//   - On a member's Left, every key whose last call was sent to that
//     member is probed: an open circuit is half-opened (Registry.ProbeNow),
//     and its next call — the probe — finds the grain where the cluster
//     places it now. A circuit that is half-open or closed then, with calls
//     still out to the member that left, is half-opened when their failures
//     open it, once.
//   - On any change (Left or Joined), every key whose last call found no
//     member to host its grain is probed the same way: the new topology may
//     have one.
//
// Work per event is in proportion to the keys on the members that changed,
// not to all keys. Create one per registry and member; Target gives the
// targets it follows.
type Failover struct {
	reg     *tripwire.Registry
	cluster *cluster.Cluster

	mu      sync.Mutex
	stopped bool
	entries map[string]*entry          // by key
	byAddr  map[string]map[*entry]bool // by the address of their last call; "": found no member
	queue   []any                      // *cluster.ClusterTopology, reprobe and sweep, for run
	sweepAt int                        // the entries at which the next sweep is queued
	wake    chan struct{}              // cap 1: the queue has work
	quit    chan struct{}              // closed by Stop
	done    chan struct{}              // closed when run returns
	sub     *eventstream.Subscription  // the topology events
	unsub   func()                     // the registry's transitions
	gone    *departures                // the cluster's, for the targets
}

// NewFailover follows c's topology for breakers of reg, the registry on
// c's member: register the targets of its Target in reg. A nil reg or c is
// tripwire.ErrInvalidOption. Stop ends it; until then it holds a goroutine.
func NewFailover(reg *tripwire.Registry, c *cluster.Cluster) (*Failover, error) {
	if reg == nil || c == nil || c.ActorSystem == nil || c.MemberList == nil {
		return nil, fmt.Errorf("%w: a failover needs a registry and a cluster", tripwire.ErrInvalidOption)
	}
	f := &Failover{
		reg: reg, cluster: c,
		entries: map[string]*entry{}, byAddr: map[string]map[*entry]bool{}, sweepAt: minSweep,
		wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}),
		gone: departuresOf(c),
	}
	// Handlers run on the publisher's goroutine, protoactor's member list,
	// which holds its lock meanwhile (cluster/member_list.go:128-160): hand
	// the event to run and return.
	f.sub = c.ActorSystem.EventStream.Subscribe(func(ev any) {
		if t, ok := ev.(*cluster.ClusterTopology); ok {
			f.post(t)
		}
	})
	f.unsub = reg.Subscribe(f.opened)
	go f.run()
	return f, nil
}

// Target is the grain target of kind and identity, as grain.Target(c, kind,
// identity), registered in the failover's registry under key: its calls
// tell the failover where the grain lives. It fails with
// tripwire.ErrInvalidKey if key is empty, tripwire.ErrInvalidTarget if
// kind or identity is, and ErrStopped after Stop. Targets made for one key
// share what is known of it. What the failover knows of a key the registry
// no longer has (WithMaxKeys forgot it, or its Register failed) it drops as
// more keys are made, so it holds at most about three times the keys
// registered (or 2,048 more).
func (f *Failover) Target(key, kind, identity string) (tripwire.Target, error) {
	if key == "" {
		return nil, fmt.Errorf("%w: a failover target needs the key it is registered under", tripwire.ErrInvalidKey)
	}
	if kind == "" || identity == "" {
		return nil, fmt.Errorf("%w: a grain target needs a kind and an identity", tripwire.ErrInvalidTarget)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return nil, ErrStopped
	}
	e, ok := f.entries[key]
	if !ok {
		e = &entry{f: f, key: key}
		f.entries[key] = e
		if len(f.entries) >= f.sweepAt {
			f.sweepAt = math.MaxInt // until the sweep sets it again
			f.postLocked(sweep{})
		}
	}
	return newTarget(&caller{cluster: f.cluster, kind: kind, identity: identity, track: e, gone: f.gone}), nil
}

// Stop ends the failover: it no longer follows the topology or the
// registry, and its goroutine has ended when Stop returns. Its targets go
// on calling their grains. Stop is idempotent.
func (f *Failover) Stop() {
	f.mu.Lock()
	if f.stopped {
		f.mu.Unlock()
		<-f.done
		return
	}
	f.stopped = true
	close(f.quit)
	f.mu.Unlock()
	f.cluster.ActorSystem.EventStream.Unsubscribe(f.sub)
	f.unsub()
	<-f.done
}

// post queues an event for run, unless the failover is stopped.
func (f *Failover) post(ev any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.postLocked(ev)
}

// postLocked is post with f.mu held.
func (f *Failover) postLocked(ev any) {
	if f.stopped {
		return
	}
	f.queue = append(f.queue, ev)
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// run handles the queued events in order until Stop.
func (f *Failover) run() {
	defer close(f.done)
	for {
		select {
		case <-f.quit:
			return
		case <-f.wake:
		}
		f.mu.Lock()
		batch := f.queue
		f.queue = nil
		f.mu.Unlock()
		for _, ev := range batch {
			switch ev := ev.(type) {
			case *cluster.ClusterTopology:
				f.topologyChanged(ev)
			case reprobe:
				_ = f.reg.ProbeNow(context.Background(), string(ev)) // not open any more, unknown, shut down: nothing to do
			case sweep:
				f.sweep()
			}
		}
	}
}
