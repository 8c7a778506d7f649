package remote

import (
	"flag"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/remoting"
)

// The partitions of TestSilentPartition: make test runs one of 20 s with
// remoting on both sides; make partition also 60 s, and both with
// protoactor's remote as it is; make reconnect heals at phases of
// protoactor's reconnection cycle, under either SYN schedule.
var (
	partitionFor      = flag.Duration("partition.for", 20*time.Second, "how long TestSilentPartition drops packets (at least, with -partition.phases)")
	partitionRemoting = flag.Bool("partition.remoting", true, "run the node and the caller with remoting.Options (mutual TLS), the caller with ProbeOnReconnect; false: protoactor's remote as it is (no keepalive)")
	partitionHeal     = flag.Duration("partition.heal", 0, "the bound on closing again after the heal (0: OpenTimeout + 3 s)")
	partitionPhases   = flag.Int("partition.phases", 0, "partition this many times, healing each at the next of as many phases of protoactor's reconnection cycle after -partition.for (0: once, healed after -partition.for)")
	partitionSYN      = flag.String("partition.syn", "linear", "the SYN retransmission schedule of both hosts: linear (Linux since 6.5) or exponential (before)")
)

// phaseLag puts each heal of -partition.phases a little after its phase,
// a multiple of the cycle's twelfth (0.5 s): the kernel sends a SYN
// retransmission on some of these, and a heal just after one finds the
// SYN lost, the worst moment.
const phaseLag = 50 * time.Millisecond

// reconnectCycle is protoactor's cycle of connection attempts to a node it
// lost, with remoting's options: an attempt of at most ConnectTimeout, then
// a sleep of 2 s (remote/endpoint_writer.go:44-55).
const reconnectCycle = remoting.DefaultConnectTimeout + 2*time.Second

// A silent partition (packets dropped, no RST) between a registry and its
// remote target's node opens the breaker by threshold — its calls time
// out, nothing tells protoactor the node is gone — and, with remoting on
// both sides and ProbeOnReconnect, the breaker closes again within
// OpenTimeout + 3 s of the network healing, and within a minute the caller
// holds at most 2 connections to the node. Without keepalive,
// protoactor's connection can stay stuck in TCP retransmission backoff for
// about a minute.
func TestSilentPartition(t *testing.T) {
	// Given a node on host a and a registry calling it from host b
	net := newNetPair(t)
	net.synSchedule(t, *partitionSYN)
	set := demoSettings
	bound := *partitionHeal
	if bound == 0 {
		bound = set.OpenTimeout + 3*time.Second
	}
	var rem remotingSpec
	if *partitionRemoting {
		ca, _ := testTLS(t)
		rem = remotingSpec{On: true, TLS: &ca}
	}
	node := net.addrA + ":7070"
	startNode(t, nodeSpec{ns: net.a, Listen: node, Remoting: rem})
	rc := startRemoteCaller(t, net.b, callerSpec{Listen: net.addrB + ":7071", Node: node, Remoting: rem, Probe: rem.On, DialLog: *partitionPhases > 0,
		Threshold: set.Threshold, OpenTimeout: set.OpenTimeout, CallTimeout: set.CallTimeout, Callers: 4, Pause: 20 * time.Millisecond})

	rc.steady(t)
	var recoveries []time.Duration
	for k := range max(1, *partitionPhases) {
		// When every packet between them is dropped
		cut := time.Now()
		net.partition(t)
		// Then the breaker opens, by threshold: the calls time out
		opened := rc.next(t, "open", cut, cut.Add(5*time.Second))
		if opened.reason != "threshold" {
			t.Errorf("opened for %q, want threshold", opened.reason)
		}

		// When the path heals after the partition's length (or at the
		// round's phase of a connection attempt after it)
		healAt, when := cut.Add(*partitionFor), "after the partition's length"
		if *partitionPhases > 0 {
			phase := reconnectCycle*time.Duration(k)/time.Duration(*partitionPhases) + phaseLag
			healAt = rc.nextDial(t, healAt, healAt.Add(3*reconnectCycle)).Add(phase)
			when = fmt.Sprintf("%v into a connection attempt (of a %v cycle)", phase, reconnectCycle)
		}
		time.Sleep(time.Until(healAt)) // the fault's length, not a wait for an event
		attempts := socketsTo(t, rc.c.cmd.Process.Pid, node)
		if rem.On && attempts > 1 {
			t.Errorf("the caller holds %d connections to the node before the heal, want at most the attempt under way", attempts)
		}
		healed := time.Now()
		net.heal(t)
		// Then the breaker closes again within the bound
		closed := rc.next(t, "closed", healed, healed.Add(bound))
		recovered := closed.at.Sub(healed)
		recoveries = append(recoveries, recovered)
		// And the caller's connections to the node are soon at most 2
		first, most := socketsAfter(t, rem, rc.c.cmd.Process.Pid, node, closed.at)
		t.Logf("partition %v, remoting %v, SYN %s, healed %s: open after %v (%s); closed again %v after the heal (bound %v); %d connections to the node before the heal, %d at the close, %d at most in the %v after",
			healed.Sub(cut).Round(time.Millisecond), rem.On, *partitionSYN, when, opened.at.Sub(cut).Round(time.Millisecond), opened.reason,
			recovered.Round(time.Millisecond), bound, attempts, first, most, settle)
	}
	counts := rc.stop(t)
	slices.Sort(recoveries)
	t.Logf("closed again after the heal, %d partitions: median %v, worst %v; calls: %d ok, %d rejected, %d failed slow (at their deadline), %d otherwise",
		len(recoveries), recoveries[len(recoveries)/2].Round(time.Millisecond), recoveries[len(recoveries)-1].Round(time.Millisecond),
		counts["ok"], counts["open"], counts["slow"], counts["other"])
}
