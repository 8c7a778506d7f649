package task

import (
	"context"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"

	"github.com/tripwire-go/tripwire/internal/errs"
)

// Grain calls one virtual actor of a protoactor cluster, by kind and
// identity, from a worker. Each call finds the grain where it lives now
// (protoactor's PID cache, else the cluster's identity lookup, which
// activates it), so calls follow the grain when it moves to another member.
// The call watches the grain while it waits: if the grain or its member
// dies, the call fails at once with ErrTargetDown and the cached address is
// dropped, so the next call looks the grain up again.
type Grain struct {
	Cluster  *cluster.Cluster
	Kind     string
	Identity string
}

// Call is the grain's Func: it sends msg and waits for the reply, the
// grain's death, or ctx's end, whichever comes first. A reply that is an
// error is returned as the error.
func (g *Grain) Call(ctx context.Context, msg any) (any, error) {
	pid, err := g.locate(ctx)
	if err != nil {
		return nil, err
	}
	sys := g.Cluster.ActorSystem
	box := newReplyBox()
	self, _ := sys.ProcessRegistry.Add(box, "tripwire$grain$"+sys.ProcessRegistry.NextId())
	defer sys.ProcessRegistry.Remove(self)
	target, _ := sys.ProcessRegistry.Get(pid)
	target.SendSystemMessage(pid, &actor.Watch{Watcher: self})
	defer target.SendSystemMessage(pid, &actor.Unwatch{Watcher: self})
	sys.Root.RequestWithCustomSender(pid, msg, self)
	select {
	case reply := <-box.replies:
		return g.answer(pid, reply)
	case why := <-box.terminated:
		select {
		case reply := <-box.replies: // protoactor can deliver Terminated before a reply
			return g.answer(pid, reply)
		default:
		}
		g.forget(pid)
		return nil, fmt.Errorf("%w: grain %s/%s at %s: %s", errs.ErrTargetDown, g.Kind, g.Identity, pid, why)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// answer turns the grain's reply into the call's result.
func (g *Grain) answer(pid *actor.PID, reply any) (any, error) {
	switch m := actor.UnwrapEnvelopeMessage(reply).(type) {
	case *actor.DeadLetterResponse:
		g.forget(pid)
		return nil, fmt.Errorf("%w: grain %s/%s at %s", errs.ErrTargetDown, g.Kind, g.Identity, pid)
	case error:
		return nil, m
	default:
		return m, nil
	}
}

// locate returns the grain's PID: cached, or looked up (and activated) by
// the cluster. The lookup cannot be cancelled; the breaker answers the
// caller at its deadline even if the lookup takes longer.
func (g *Grain) locate(ctx context.Context) (*actor.PID, error) {
	if pid, ok := g.Cluster.PidCache.Get(g.Identity, g.Kind); ok && pid != nil {
		return pid, nil
	}
	pid := g.Cluster.Get(g.Identity, g.Kind)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if pid == nil {
		return nil, fmt.Errorf("%w: no member hosts grain %s/%s", errs.ErrTargetDown, g.Kind, g.Identity)
	}
	g.Cluster.PidCache.Set(g.Identity, g.Kind, pid)
	return pid, nil
}

// forget drops pid from the cache, if it is still the grain's cached PID.
func (g *Grain) forget(pid *actor.PID) {
	g.Cluster.PidCache.RemoveByValue(g.Identity, g.Kind, pid)
}
