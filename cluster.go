package tripwire

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"

	"github.com/tripwire-go/tripwire/task"
)

// ClusterTarget protects a virtual actor (grain) of the protoactor cluster
// that the registry's actor system is a member of, addressed by kind and
// identity. Every call finds the grain where it lives now, so calls follow
// it when it moves to another member; if the grain or its member dies while
// a call waits, the call fails at once with ErrTargetDown. Messages must be
// protobuf messages (else ErrNotSerializable). A reply that is an error
// value counts as a failure, as for ActorTarget. Register refuses the target
// with ErrInvalidTarget if kind or identity is empty or the actor system has
// no cluster.
func ClusterTarget(kind, identity string) Target {
	return targetSpec{grain: &grainSpec{kind: kind, identity: identity}}
}

type grainSpec struct{ kind, identity string }

// grainTarget builds the worker function of a cluster target.
func (r *Registry) grainTarget(g *grainSpec) (*task.Grain, error) {
	if g.kind == "" || g.identity == "" {
		return nil, fmt.Errorf("%w: cluster target needs a kind and an identity", ErrInvalidTarget)
	}
	c := clusterOf(r.sys)
	if c == nil {
		return nil, fmt.Errorf("%w: cluster target %s/%s, but the actor system is no cluster member", ErrInvalidTarget, g.kind, g.identity)
	}
	return &task.Grain{Cluster: c, Kind: g.kind, Identity: g.identity}, nil
}

// clusterOf returns sys's cluster, or nil: protoactor's GetCluster panics
// on a system without one.
func clusterOf(sys *actor.ActorSystem) (c *cluster.Cluster) {
	defer func() {
		if recover() != nil {
			c = nil
		}
	}()
	return cluster.GetCluster(sys)
}
