package remote

import (
	"flag"
	"syscall"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

// The node and the registry in processes of their own on 127.0.0.1: the
// figures of docs/beyond-one-machine.md for a node that hangs and one that
// crashes. make test runs them with a CallTimeout of 1 s, so that with
// both cores busy a kill is seen before three calls time out; make faults
// with the demo's 200 ms, and a longer outage.
var (
	faultsCallTimeout = flag.Duration("faults.calltimeout", time.Second, "the CallTimeout of the faults tests (the demo's: 200ms)")
	faultsOutage      = flag.Duration("faults.outage", 6*time.Second, "how long TestNodeKilledThenRestarted's node stays dead")
	faultsRemoting    = flag.Bool("faults.remoting", true, "run the node and the caller with remoting.Options (mutual TLS), the caller with ProbeOnReconnect; false: protoactor's remote as it is")
)

// faultSetup is the settings and the remote of the faults tests.
func faultSetup(t *testing.T) (tripwire.Settings, remotingSpec) {
	t.Helper()
	set := demoSettings
	set.CallTimeout = *faultsCallTimeout
	if !*faultsRemoting {
		return set, remotingSpec{}
	}
	ca, _ := testTLS(t)
	return set, remotingSpec{On: true, TLS: &ca}
}

// A node stopped (SIGSTOP: a hung host, its connections up) opens the
// breaker by threshold, and once continued the breaker closes within
// OpenTimeout + 3 s.
func TestNodePausedThenContinued(t *testing.T) {
	set, rem := faultSetup(t)
	node := startNode(t, nodeSpec{Listen: "127.0.0.1:0", Remoting: rem})
	rc := startRemoteCaller(t, "", callerSpec{Listen: "127.0.0.1:0", Node: node.addr, Remoting: rem, Probe: rem.On,
		Threshold: set.Threshold, OpenTimeout: set.OpenTimeout, CallTimeout: set.CallTimeout, Callers: 4, Pause: 20 * time.Millisecond})

	rc.steady(t)

	// When the node is stopped for 5 s
	stopped := time.Now()
	if err := node.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// Then the breaker opens by threshold: its calls time out
	opened := rc.next(t, "open", stopped, stopped.Add(5*time.Second))
	if opened.reason != "threshold" {
		t.Errorf("opened for %q, want threshold", opened.reason)
	}
	time.Sleep(time.Until(stopped.Add(5 * time.Second))) // the fault's length, not a wait for an event
	continued := time.Now()
	if err := node.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	// And once the node is continued, the breaker closes within OpenTimeout + 3 s
	closed := rc.next(t, "closed", continued, continued.Add(set.OpenTimeout+3*time.Second))
	counts := rc.stop(t)
	t.Logf("node stopped 5 s, CallTimeout %v, remoting %v: open after %v (%s); closed again %v after SIGCONT; %d calls failed slow (at their deadline)",
		set.CallTimeout, rem.On, opened.at.Sub(stopped).Round(time.Millisecond), opened.reason, closed.at.Sub(continued).Round(time.Millisecond), counts["slow"])
}

// A node killed (kill -9) opens the breaker at once (target_down: the
// connection is reset). Once it listens again on its address, the breaker
// closes within OpenTimeout + 3 s: with ProbeOnReconnect as soon as
// protoactor's next connection attempt (2 s apart) reaches it, or with the
// next probe if none was under way; and within a minute of that the caller
// holds at most 2 connections to the node, though each failed attempt of
// the outage dialed one.
func TestNodeKilledThenRestarted(t *testing.T) {
	set, rem := faultSetup(t)
	node := startNode(t, nodeSpec{Listen: "127.0.0.1:0", Remoting: rem})
	rc := startRemoteCaller(t, "", callerSpec{Listen: "127.0.0.1:0", Node: node.addr, Remoting: rem, Probe: rem.On,
		Threshold: set.Threshold, OpenTimeout: set.OpenTimeout, CallTimeout: set.CallTimeout, Callers: 4, Pause: 20 * time.Millisecond})

	rc.steady(t)

	// When the node is killed
	killed := time.Now()
	node.kill()
	// Then the breaker opens at once, because its target went down
	opened := rc.next(t, "open", killed, killed.Add(5*time.Second))
	if opened.reason != "target_down" {
		t.Errorf("opened for %q, want target_down", opened.reason)
	}
	// When the node is back on its address after the outage
	time.Sleep(time.Until(killed.Add(*faultsOutage))) // the fault's length, not a wait for an event
	startNode(t, nodeSpec{Listen: node.addr, Remoting: rem})
	listening := time.Now()
	// Then the breaker closes within the bound
	bound := set.OpenTimeout + 3*time.Second
	if !rem.On {
		bound = time.Minute // protoactor's remote alone: measured, not bounded
	}
	closed := rc.next(t, "closed", listening, listening.Add(bound))
	// And the caller's connections to the node are soon at most 2
	first, most := socketsAfter(t, rem, rc.c.cmd.Process.Pid, node.addr, closed.at)
	counts := rc.stop(t)
	t.Logf("node killed, restarted after %v, CallTimeout %v, remoting %v: open after %v (%s); closed again %v after the node listened again; %d calls failed slow (at their deadline); %d connections to the node at the close, %d at most in the %v after",
		*faultsOutage, set.CallTimeout, rem.On, opened.at.Sub(killed).Round(time.Millisecond), opened.reason,
		closed.at.Sub(listening).Round(time.Millisecond), counts["slow"], first, most, settle)
}
