package remote

import (
	"syscall"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/state"
)

// The node and the registry in processes of their own on 127.0.0.1, with
// the demo's settings: the figures of issue 17's table for a node that
// hangs and one that crashes.

// A node stopped (SIGSTOP: a hung host, its connections up) opens the
// breaker by threshold, and once continued the breaker closes within
// OpenTimeout + 3 s.
func TestNodePausedThenContinued(t *testing.T) {
	set := demoSettings
	node := startChildIn(t, "", "127.0.0.1:0", 0, true)
	rc := startRemoteCaller(t, "", callerSpec{Listen: "127.0.0.1:0", Node: node.addr, Keepalive: true,
		Threshold: set.Threshold, OpenTimeout: set.OpenTimeout, CallTimeout: set.CallTimeout, Callers: 4, Pause: 20 * time.Millisecond})

	// When the node is stopped for 5 s
	stopped := time.Now()
	if err := node.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// Then the breaker opens by threshold: its calls time out
	opened := rc.next(t, "open", stopped.Add(5*time.Second))
	if opened.reason != state.ReasonThreshold {
		t.Errorf("opened for %q, want threshold", opened.reason)
	}
	time.Sleep(time.Until(stopped.Add(5 * time.Second))) // the fault's length, not a wait for an event
	continued := time.Now()
	if err := node.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	// And once the node is continued, the breaker closes within OpenTimeout + 3 s
	closed := rc.next(t, "closed", continued.Add(set.OpenTimeout+3*time.Second))
	counts := rc.stop(t)
	t.Logf("node stopped 5 s: open after %v (%s); closed again %v after SIGCONT; %d calls failed slow (at their deadline)",
		opened.at.Sub(stopped).Round(time.Millisecond), opened.reason, closed.at.Sub(continued).Round(time.Millisecond), counts["slow"])
}

// A node killed (kill -9) opens the breaker at once (target_down: the
// connection is reset), and once it listens again on its address the
// breaker closes within protoactor's reconnection (a lost address is
// retried every 2 s), OpenTimeout and a probe's call timeout.
func TestNodeKilledThenRestarted(t *testing.T) {
	set := demoSettings
	node := startChildIn(t, "", "127.0.0.1:0", 0, true)
	rc := startRemoteCaller(t, "", callerSpec{Listen: "127.0.0.1:0", Node: node.addr, Keepalive: true,
		Threshold: set.Threshold, OpenTimeout: set.OpenTimeout, CallTimeout: set.CallTimeout, Callers: 4, Pause: 20 * time.Millisecond})

	// When the node is killed
	killed := time.Now()
	node.kill()
	// Then the breaker opens at once, because its target went down
	opened := rc.next(t, "open", killed.Add(time.Second))
	if opened.reason != state.ReasonTargetDown {
		t.Errorf("opened for %q, want target_down", opened.reason)
	}
	// When the node is back on its address a second later
	time.Sleep(time.Until(killed.Add(time.Second))) // the fault's length, not a wait for an event
	startChildIn(t, "", node.addr, 0, true)
	listening := time.Now()
	// Then the breaker closes within the bound
	closed := rc.next(t, "closed", listening.Add(reconnect+set.OpenTimeout+set.CallTimeout))
	counts := rc.stop(t)
	t.Logf("node killed, restarted after 1 s: open after %v (%s); closed again %v after the node listened again; %d calls failed slow (at their deadline)",
		opened.at.Sub(killed).Round(time.Millisecond), opened.reason, closed.at.Sub(listening).Round(time.Millisecond), counts["slow"])
}
