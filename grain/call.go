package grain

import (
	"context"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/remoting"
)

// caller calls one virtual actor of a protoactor cluster, by kind and
// identity, on a breaker's worker. Each call finds the grain where it lives
// now, so calls follow the grain when it moves to another member. The call
// watches the grain while it waits: if the grain or its member dies, the
// call fails at once with ErrTargetDown and the cached address is dropped,
// so the next call looks the grain up again. A member has died when the
// cluster's topology drops it (departures), whatever protoactor's endpoint
// to it says.
type caller struct {
	cluster  *cluster.Cluster
	kind     string
	identity string
	track    *entry      // what a Failover knows of the key (nil: no failover)
	gone     *departures // the cluster's members leaving (departuresOf)
}

// call is the target's function: it sends msg and waits for the reply, the
// grain's death, or ctx's end, whichever comes first. A reply that is an
// error is returned as the error. If the address came from protoactor's
// cache and the message provably reached no actor there (the grain moved
// since), call looks the grain up again and sends once more.
func (g *caller) call(ctx context.Context, msg any) (any, error) {
	g.track.started(ctx)
	pid, cached, err := g.locate(ctx, true)
	if err != nil {
		return nil, err
	}
	r := g.ask(ctx, pid, msg)
	if r.undelivered && cached && ctx.Err() == nil {
		if pid, _, err = g.locate(ctx, false); err != nil {
			return nil, err
		}
		r = g.ask(ctx, pid, msg)
	}
	return r.value, r.err
}

// result is the end of one ask. undelivered reports that no actor at the
// grain's address got the message: the watch found no actor there.
type result struct {
	value       any
	err         error
	undelivered bool
}

// ask sends msg to the grain at pid and waits, watching it.
func (g *caller) ask(ctx context.Context, pid *actor.PID, msg any) result {
	sys := g.cluster.ActorSystem
	box := newReplyBox()
	self, _ := sys.ProcessRegistry.Add(box, "tripwire$grain$"+sys.ProcessRegistry.NextId())
	defer sys.ProcessRegistry.Remove(self)
	if pid.Address != sys.Address() { // a local grain's watch is the registry's own
		if !g.gone.watch(pid.Address, box) {
			g.forget(pid)
			return result{err: fmt.Errorf("%w: grain %s/%s at %s: its member left the cluster", tripwire.ErrTargetDown, g.kind, g.identity, pid)}
		}
		defer g.gone.unwatch(pid.Address, box)
	}
	target, _ := sys.ProcessRegistry.Get(pid)
	target.SendSystemMessage(pid, &actor.Watch{Watcher: self})
	watching := true
	defer func() {
		// A watch ends with its Terminated. An Unwatch to a dead member
		// would make protoactor dial the dead address again for 10 s.
		if watching {
			target.SendSystemMessage(pid, &actor.Unwatch{Watcher: self})
		}
	}()
	g.send(ctx, pid, msg, self)
	select {
	case reply := <-box.replies:
		if _, dead := actor.UnwrapEnvelopeMessage(reply).(*actor.DeadLetterResponse); !dead {
			return g.answer(pid, reply, false)
		}
		notThere, ended := g.notThere(ctx, pid, self, box)
		if ended != nil {
			watching = false
			if why := *ended; why != actor.TerminatedReason_NotFound && why != actor.TerminatedReason_Stopped {
				return g.terminated(pid, why) // its member is gone
			}
		}
		return g.answer(pid, reply, notThere)
	case why := <-box.terminated:
		watching = false
		select {
		case reply := <-box.replies: // protoactor can deliver Terminated before a reply
			// A dead letter then came from the address: the grain had
			// stopped, or was not there (see notThere).
			return g.answer(pid, reply, why == actor.TerminatedReason_NotFound || why == actor.TerminatedReason_Stopped)
		default:
		}
		return g.terminated(pid, why)
	case <-ctx.Done():
		return result{err: ctx.Err()}
	}
}

// terminated is the result of a call whose grain's watch ended, why, with
// no reply: undelivered if no actor was there.
func (g *caller) terminated(pid *actor.PID, why actor.TerminatedReason) result {
	g.forget(pid)
	return result{err: fmt.Errorf("%w: grain %s/%s at %s: %s", tripwire.ErrTargetDown, g.kind, g.identity, pid, why),
		undelivered: why == actor.TerminatedReason_NotFound}
}

// send sends msg to the grain at pid with self as its sender, and the
// call's deadline in its remoting.DeadlineHeader, as an ask to an actor
// on another machine carries it (a grain may live on any member): a grain kind whose props run remoting.ShedExpired drops a
// call whose caller has already had tripwire.ErrTimeout.
func (g *caller) send(ctx context.Context, pid *actor.PID, msg any, self *actor.PID) {
	sys := g.cluster.ActorSystem
	if d, ok := ctx.Deadline(); ok {
		if env, err := remoting.DeadlineEnvelope(msg, self, d); err == nil {
			sys.Root.Send(pid, env)
			return
		}
	}
	sys.Root.RequestWithCustomSender(pid, msg, self)
}

// answer turns the grain's reply into the call's result; notThere
// reports that a dead letter answered a message that reached no actor at
// pid, not one the grain forwarded (see notThere).
func (g *caller) answer(pid *actor.PID, reply any, notThere bool) result {
	switch m := actor.UnwrapEnvelopeMessage(reply).(type) {
	case *actor.DeadLetterResponse:
		if !notThere {
			return result{err: fmt.Errorf("%w: grain %s/%s at %s: a dead letter answered, and the grain may have got the call (did it forward it to an actor that is gone?)", tripwire.ErrTargetDown, g.kind, g.identity, pid)}
		}
		g.forget(pid)
		return result{err: fmt.Errorf("%w: grain %s/%s at %s", tripwire.ErrTargetDown, g.kind, g.identity, pid), undelivered: true}
	case error:
		return result{err: m}
	default:
		return result{value: m}
	}
}

// locate returns the grain's PID, and whether it came from protoactor's
// cache: cached (if useCache), or looked up (and activated) by the cluster.
func (g *caller) locate(ctx context.Context, useCache bool) (*actor.PID, bool, error) {
	if useCache {
		if pid, ok := g.cluster.PidCache.Get(g.identity, g.kind); ok && pid != nil {
			g.track.placed(pid.Address)
			return pid, true, nil
		}
	}
	pid, err := g.lookup(ctx)
	if err != nil {
		return nil, false, err
	}
	if pid == nil {
		g.track.placed("")
		return nil, false, fmt.Errorf("%w: no member hosts grain %s/%s", tripwire.ErrTargetDown, g.kind, g.identity)
	}
	g.cluster.PidCache.Set(g.identity, g.kind, pid)
	g.track.placed(pid.Address)
	return pid, false, nil
}

// lookup asks the cluster where the grain lives, activating it, until ctx
// ends. protoactor's lookup cannot be cancelled, and it may be waiting on a
// member that has died (disthash asks the grain's owner, for up to 5 s): if
// the topology drops a member meanwhile, lookup asks again under the new
// topology and leaves the first lookup to end on its own. Waiting for the
// new topology to settle ends with ctx too.
func (g *caller) lookup(ctx context.Context) (*actor.PID, error) {
	if g.cluster.IdentityLookup == nil {
		// StartMember or StartClient sets it: until then protoactor's
		// lookup dereferences nil, on a goroutine no worker recovers.
		return nil, fmt.Errorf("%w: grain %s/%s: its cluster has not started (StartMember or StartClient)", tripwire.ErrTargetDown, g.kind, g.identity)
	}
	for {
		left := g.gone.nextLeave()
		found := make(chan looked, 1)
		go g.get(found)
		select {
		case l := <-found:
			if l.err != nil {
				return nil, l.err
			}
			return l.pid, ctx.Err()
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-left:
			if err := settledBy(ctx, g.cluster); err != nil {
				return nil, err
			}
		}
	}
}

// forget drops pid from the cache, if it is still the grain's cached PID.
func (g *caller) forget(pid *actor.PID) {
	g.cluster.PidCache.RemoveByValue(g.identity, g.kind, pid)
}

// looked is what a lookup found: the grain's PID, or why there is none.
type looked struct {
	pid *actor.PID
	err error
}

// get sends to found where the cluster says the grain lives. A panic in
// protoactor's lookup — a call while StartMember is still building the
// cluster, between its setting IdentityLookup and its partitions — fails
// the lookup instead of the process.
func (g *caller) get(found chan<- looked) {
	defer func() {
		if p := recover(); p != nil {
			found <- looked{err: fmt.Errorf("%w: grain %s/%s: the cluster's lookup failed (is it still starting?): %v",
				tripwire.ErrTargetDown, g.kind, g.identity, p)}
		}
	}()
	found <- looked{pid: g.cluster.Get(g.identity, g.kind)}
}
