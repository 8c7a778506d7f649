package remote

import (
	"flag"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/state"
)

// The partition's length and whether both sides run keepalive: make test
// runs 20 s with keepalive; make partition also 60 s, and both without.
var (
	partitionFor       = flag.Duration("partition.for", 20*time.Second, "how long TestSilentPartition drops packets")
	partitionKeepalive = flag.Bool("partition.keepalive", true, "whether the node and the caller run gRPC keepalive")
	partitionHeal      = flag.Duration("partition.heal", 0, "the bound on closing again after the heal (0: OpenTimeout + 3 s)")
)

// A silent partition (packets dropped, no RST) between a registry and its
// remote target's node opens the breaker by threshold — its calls time
// out, nothing tells protoactor the node is gone — and, with gRPC
// keepalive on both sides, the breaker closes again within OpenTimeout +
// 3 s of the network healing. Without keepalive, protoactor's connection
// can stay stuck in TCP retransmission backoff for about a minute.
func TestSilentPartition(t *testing.T) {
	// Given a node on host a and a registry calling it from host b
	net := newNetPair(t)
	set := demoSettings
	heal := *partitionHeal
	if heal == 0 {
		heal = set.OpenTimeout + 3*time.Second
	}
	node := net.addrA + ":7070"
	startChildIn(t, net.a, node, 0, *partitionKeepalive)
	rc := startRemoteCaller(t, net.b, callerSpec{Listen: net.addrB + ":7071", Node: node, Keepalive: *partitionKeepalive,
		Threshold: set.Threshold, OpenTimeout: set.OpenTimeout, CallTimeout: set.CallTimeout, Callers: 4, Pause: 20 * time.Millisecond})

	// When every packet between them is dropped
	cut := time.Now()
	net.partition(t)
	// Then the breaker opens, by threshold: the calls time out
	opened := rc.next(t, "open", cut.Add(5*time.Second))
	if opened.reason != state.ReasonThreshold {
		t.Errorf("opened for %q, want threshold", opened.reason)
	}

	// When the path heals after the partition's length
	time.Sleep(time.Until(cut.Add(*partitionFor))) // the fault's length, not a wait for an event
	healed := time.Now()
	net.heal(t)
	// Then the breaker closes again within the bound
	closed := rc.next(t, "closed", healed.Add(heal))
	counts := rc.stop(t)
	t.Logf("partition %v, keepalive %v: open after %v (%s); closed again %v after the heal (bound %v); calls: %d ok, %d rejected, %d failed slow (at their deadline), %d otherwise",
		*partitionFor, *partitionKeepalive, opened.at.Sub(cut).Round(time.Millisecond), opened.reason,
		closed.at.Sub(healed).Round(time.Millisecond), heal, counts["ok"], counts["open"], counts["slow"], counts["other"])
}
