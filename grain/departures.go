package grain

import (
	"context"
	"runtime"
	"sync"
	"weak"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
)

// departures follows one cluster's topology for the grain calls waiting on
// its members: when the topology drops a member, every call out to it ends
// with the Terminated protoactor gives a dead address, a call to a member
// the latest topology does not hold ends at once, and a lookup under way
// starts again (caller.lookup).
//
// protoactor's own watch does not always tell: a call sent after a member
// died, before the topology dropped it, reopens an endpoint to the dead
// address, and that endpoint's watcher can go on waiting past the drop. The
// call then waited for its deadline, and with it a half-open circuit's
// probe — the one Failover counts on to find the grain elsewhere.
type departures struct {
	mu      sync.Mutex
	members map[string]bool               // the addresses of the latest topology; nil: none seen yet
	waiting map[string]map[*replyBox]bool // the calls out, by their grain's member address
	leave   chan struct{}                 // closed (and replaced) when a topology drops a member
}

// departuresByCluster holds one departures per cluster, for as long as the
// cluster lives.
var (
	departuresMu        sync.Mutex
	departuresByCluster = map[weak.Pointer[cluster.Cluster]]*departures{}
)

// departuresOf is c's departures, made (and subscribed to c's topology) on
// first use. c must have an actor system.
func departuresOf(c *cluster.Cluster) *departures {
	key := weak.Make(c)
	departuresMu.Lock()
	defer departuresMu.Unlock()
	if d := departuresByCluster[key]; d != nil {
		return d
	}
	d := &departures{waiting: map[string]map[*replyBox]bool{}, leave: make(chan struct{})}
	// The subscriber refers to d only, so that c can be collected; the
	// event stream goes with c's actor system.
	c.ActorSystem.EventStream.Subscribe(func(ev any) {
		if t, ok := ev.(*cluster.ClusterTopology); ok {
			d.topology(t)
		}
	})
	departuresByCluster[key] = d
	runtime.AddCleanup(c, func(k weak.Pointer[cluster.Cluster]) {
		departuresMu.Lock()
		delete(departuresByCluster, k)
		departuresMu.Unlock()
	}, key)
	return d
}

// topology takes a new topology: the calls out to members it does not hold
// end. It runs on protoactor's member list's goroutine, under its lock;
// what it does is in proportion to those calls, and never blocks.
func (d *departures) topology(t *cluster.ClusterTopology) {
	members := make(map[string]bool, len(t.Members))
	for _, m := range t.Members {
		members[m.Address()] = true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.members = members
	if len(t.Left) > 0 {
		close(d.leave)
		d.leave = make(chan struct{})
	}
	for addr, boxes := range d.waiting {
		if members[addr] {
			continue
		}
		for b := range boxes {
			b.SendSystemMessage(nil, &actor.Terminated{Why: actor.TerminatedReason_AddressTerminated})
		}
		delete(d.waiting, addr)
	}
}

// nextLeave is closed when the next topology drops a member.
func (d *departures) nextLeave() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.leave
}

// watch makes b hear of addr's departure. It reports false, and watches
// nothing, if the latest topology does not hold addr.
func (d *departures) watch(addr string, b *replyBox) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.members != nil && !d.members[addr] {
		return false
	}
	boxes := d.waiting[addr]
	if boxes == nil {
		boxes = map[*replyBox]bool{}
		d.waiting[addr] = boxes
	}
	boxes[b] = true
	return true
}

// unwatch ends watch.
func (d *departures) unwatch(addr string, b *replyBox) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if boxes := d.waiting[addr]; boxes != nil {
		delete(boxes, b)
		if len(boxes) == 0 {
			delete(d.waiting, addr)
		}
	}
}

// settled returns once protoactor has finished publishing the topology:
// the member list publishes it holding its lock, and all its subscribers —
// the identity lookup's placement (disthash's rendezvous), the PID cache's
// cleanup of the members that left (cluster/cluster.go:58-66) — run before
// it lets go (cluster/member_list.go:128-160). A probe or a lookup begun
// sooner could be placed by the old topology.
func settled(c *cluster.Cluster) {
	c.MemberList.GetActivatorMember("", "") // takes the lock's read side
}

// settledBy is settled, or ctx's error if ctx ends first: the member list
// publishes holding its lock while every subscriber runs, the program's
// among them, for as long as they take. The wait goes on, on a goroutine
// of its own, until the lock is let go.
func settledBy(ctx context.Context, c *cluster.Cluster) error {
	done := make(chan struct{})
	go func() {
		settled(c)
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
