package remote

import (
	"testing"
	"time"
)

// With mutual TLS, a peer with a certificate of the node's CA calls it; a
// peer without one, with one of another CA, or talking plaintext, is
// refused at the handshake, and nothing it sends reaches an actor.
func TestOnlyPeersOfTheCAReachTheNode(t *testing.T) {
	// Given a node with a certificate of the tests' CA
	ca, other := testTLS(t)
	node := startNode(t, nodeSpec{Listen: "127.0.0.1:0", Remoting: remotingSpec{On: true, TLS: &ca}})
	spec := func(rem remotingSpec) callerSpec {
		return callerSpec{Listen: "127.0.0.1:0", Node: node.addr, Remoting: rem,
			Threshold: 1000, OpenTimeout: time.Second, CallTimeout: 200 * time.Millisecond, Callers: 2, Pause: 20 * time.Millisecond}
	}
	// When peers without a certificate of its CA call it for a while
	strangers := map[string]*remoteCaller{
		"another CA": startRemoteCallerNoWait(t, "", spec(remotingSpec{On: true, TLS: &other})),
		"plaintext":  startRemoteCallerNoWait(t, "", spec(remotingSpec{On: true})),
		// trusting the node's CA, presenting another's certificate
		"a certificate of another CA": startRemoteCallerNoWait(t, "", spec(remotingSpec{On: true, TLS: &tlsFiles{Cert: other.Cert, Key: other.Key, CA: ca.CA}})),
	}
	for name, rc := range strangers {
		select {
		case <-rc.failing:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: no call failed within 30 s", name)
		}
	}
	// Then none of their calls is answered
	for name, rc := range strangers {
		if counts := rc.stop(t); counts["ok"] != 0 || counts["slow"]+counts["other"] == 0 {
			t.Errorf("%s: calls %v, want none answered", name, counts)
		}
	}
	// And nothing reached the node's actor
	if n := node.counts(t); n.executed != 0 {
		t.Errorf("the node's actor ran %d requests of peers it refused", n.executed)
	}
	// When a peer with a certificate of its CA calls it, Then it is answered
	rc := startRemoteCaller(t, "", spec(remotingSpec{On: true, TLS: &ca}))
	if counts := rc.stop(t); counts["ok"] == 0 {
		t.Errorf("a peer of the CA: calls %v", counts)
	}
	if n := node.counts(t); n.executed == 0 {
		t.Error("the node's actor ran nothing")
	}
}
