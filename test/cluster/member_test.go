package cluster

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/test"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"
)

// member is one member of the test cluster: an actor system with remote on
// loopback, found by the others through protoactor's in-memory test
// provider, placing grains with disthash, hosting the echo grain kind.
type member struct{ c *cluster.Cluster }

// newMember makes sys a member of the cluster named name that learns its
// peers from agent. Gossip is slowed to once an hour: membership comes from
// the provider, which is what moves grains, and protoactor's gossip loop
// reads the remote block list without its lock (remote/blocklist.go
// IsBlocked), a data race under -race each time a member leaves.
func newMember(name string, agent *test.InMemAgent, sys *actor.ActorSystem) *member {
	cfg := cluster.Configure(name, test.NewTestProvider(agent), disthash.New(),
		remote.Configure("127.0.0.1", 0), cluster.WithKinds(echoKindOf()))
	cfg.GossipInterval = time.Hour
	return &member{c: cluster.New(sys, cfg)}
}

// systemOptions are the options of every member's actor system: a dead
// letter starts a goroutine that lives this long (actor/throttler.go).
var systemOptions = []actor.ConfigOption{actor.WithDeadLetterThrottleInterval(10 * time.Millisecond)}

// start joins the cluster; it takes 1 s (StartMember sleeps after joining).
func (m *member) start() { m.c.StartMember() }

// system is the member's actor system.
func (m *member) system() *actor.ActorSystem { return m.c.ActorSystem }

// addr is host:port of its remote, what the PIDs of its grains carry.
func (m *member) addr() string { return m.c.ActorSystem.Address() }

// status is how the provider lists the member.
func (m *member) status() test.AgentServiceStatus {
	host, port, _ := m.c.ActorSystem.GetHostPort()
	return test.NewAgentServiceStatus(m.c.ActorSystem.ID, host, port, m.c.GetClusterKinds())
}
