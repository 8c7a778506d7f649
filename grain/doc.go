// Package grain puts Tripwire's breakers in front of virtual actors (grains)
// of a protoactor cluster. Its own package, so that a program with no
// cluster target links none of protoactor's cluster, remote and gRPC.
//
//	t, err := grain.Target(c, "cart", "alice") // c is the member's *cluster.Cluster
//	err = reg.Register(context.Background(), "cart/alice", t, tripwire.Settings{Threshold: 3})
//
// Every call finds the grain where it lives now (protoactor's PID cache,
// else the cluster's identity lookup, which activates it), so calls follow
// the grain when it moves to another member; if the grain or its member
// dies while a call waits, the call fails at once with
// tripwire.ErrTargetDown. A member has died, at the latest, when the
// cluster's topology drops it: calls waiting on it end then, and a lookup
// under way starts again under the new topology. Messages must be protobuf messages; anything else
// is tripwire.ErrNotSerializable at once, counting neither way. A call
// carries its deadline in the remoting.DeadlineHeader, as asks to actors
// on other machines do.
//
// Failover makes such breakers probe as soon as the cluster's topology
// drops the member their grain lived on, instead of waiting for their
// OpenTimeout:
//
//	f, err := grain.NewFailover(reg, c)
//	t, err := f.Target("cart/alice", "cart", "alice")
package grain
