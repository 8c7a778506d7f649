package grain

import (
	"fmt"

	"github.com/asynkron/protoactor-go/cluster"
	"google.golang.org/protobuf/proto"

	"github.com/tripwire-go/tripwire"
)

// Target is the breaker target of the grain of kind and identity in c, the
// cluster of the member the registry runs on. It fails with
// tripwire.ErrInvalidTarget if c is nil or not made by cluster.New, or kind
// or identity is empty; an unknown kind is only seen at a call
// (tripwire.ErrTargetDown, "no member hosts grain ..."), and so is a cluster
// not started yet (tripwire.ErrTargetDown, "its cluster has not started"):
// a breaker may be registered before StartMember. The grain answers with ctx.Respond; a reply that is an
// error value counts as a failure, as for tripwire.ActorTarget (only a grain
// on the registry's own member can send one: errors do not cross the wire).
func Target(c *cluster.Cluster, kind, identity string) (tripwire.Target, error) {
	switch {
	case c == nil:
		return nil, fmt.Errorf("%w: grain target %s/%s on a nil cluster", tripwire.ErrInvalidTarget, kind, identity)
	case kind == "" || identity == "":
		return nil, fmt.Errorf("%w: a grain target needs a kind and an identity", tripwire.ErrInvalidTarget)
	case c.ActorSystem == nil:
		return nil, fmt.Errorf("%w: grain target %s/%s on a cluster with no actor system", tripwire.ErrInvalidTarget, kind, identity)
	case c.PidCache == nil:
		return nil, fmt.Errorf("%w: grain target %s/%s on a cluster that cluster.New did not make", tripwire.ErrInvalidTarget, kind, identity)
	}
	return newTarget(&caller{cluster: c, kind: kind, identity: identity, gone: departuresOf(c)}), nil
}

// newTarget is the breaker target that calls g.
func newTarget(g *caller) tripwire.Target {
	return tripwire.Checked(tripwire.Func(g.call), serializable)
}

// serializable refuses a nil message, and one protoactor's remote would
// drop: the grain may live on another member, now or after it moves.
func serializable(msg any) error {
	if msg == nil {
		return fmt.Errorf("%w: nil message to a grain", tripwire.ErrInvalidMessage)
	}
	if _, ok := msg.(proto.Message); !ok {
		return fmt.Errorf("%w: %T", tripwire.ErrNotSerializable, msg)
	}
	return nil
}
