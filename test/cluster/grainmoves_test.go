package cluster

import (
	"context"
	"errors"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// When the member a grain lives on leaves, the call waiting on the grain
// fails at once, the breaker opens, and after OpenTimeout the probe finds
// the grain again on the member that is left: the target follows the grain.
func TestGrainMovesWhenItsMemberLeaves(t *testing.T) {
	grainMoves(t, clusterFor(t), (*peer).leave)
}

// grainMoves is the scenario of a grain whose member departs, by leaving
// or otherwise: a member joins for it, since it does not come back.
func grainMoves(t *testing.T, tc *testCluster, depart func(*peer)) {
	ctx := context.Background()
	const (
		timeout = 10 * time.Second
		open    = 2 * time.Second // the open checks hold through a stall of the test
	)
	// Given a breaker on member a, in front of a grain that lives on
	// another member, b, and has answered a call
	b := tc.join(t)
	reg := newRegistry(t, tc)
	id := tc.identityOn(t, "nice", b.addr())
	register(t, tc, reg, "echo", id, tripwire.Settings{Threshold: 1, OpenTimeout: open, CallTimeout: timeout})
	v, err := reg.Call(ctx, "echo", wrapperspb.String("bonjour"))
	if err != nil {
		t.Fatalf("first call: %v", err)
	}
	if addr, _ := echoReply(t, v); addr != b.addr() {
		t.Fatalf("first reply from %s, want b (%s)", addr, b.addr())
	}
	// And a call that the grain holds unanswered
	held := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := reg.Call(ctx, "echo", tc.holds.message())
		held <- err
	}()
	within(t, 5*time.Second, "the grain holds the call", tc.holds.ch)

	// When b departs
	go depart(b)

	// Then the held call fails with ErrTargetDown, long before its deadline
	select {
	case err := <-held:
		if !errors.Is(err, tripwire.ErrTargetDown) {
			t.Fatalf("held call: %v, want ErrTargetDown", err)
		}
		t.Logf("the held call failed %v after it started (deadline %v): %v", time.Since(start), timeout, err)
	case <-time.After(timeout / 2):
		t.Fatalf("held call still waiting %v after b began to leave", timeout/2)
	}
	// And the breaker is open: the next call gets ErrOpen at once
	if st := snapshot(t, reg, "echo"); st.State != state.Open {
		t.Fatalf("state %v after the grain's member left, want open", st.State)
	}
	if _, err := reg.Call(ctx, "echo", wrapperspb.String("allô")); !errors.Is(err, tripwire.ErrOpen) {
		t.Fatalf("call while open: %v, want ErrOpen", err)
	}

	// When b has gone and a's provider no longer lists it (a graceful leave
	// takes protoactor's fixed 2 s). No call reaches the grain until
	// then: protoactor's disthash replaces its placement table without a
	// lock when the topology changes (disthash/manager.go onClusterTopology),
	// so a lookup at that moment is a data race inside protoactor.
	within(t, 15*time.Second, "b has left and a's provider dropped it", b.gone)
	if n := tc.a.c.MemberList.Length(); n != 2 {
		t.Fatalf("a sees %d members after b left, want 2 (itself and the package's other member)", n)
	}

	// Then, after OpenTimeout, the probe finds the grain again on a member
	// still there, and the breaker closes; until then calls fail at once
	// with ErrOpen
	var reply any
	eventually(t, open+5*time.Second, "the probe reaches the grain again", func() bool {
		before := time.Now()
		reply, err = reg.Call(ctx, "echo", wrapperspb.String("rebonjour"))
		if err != nil && (!errors.Is(err, tripwire.ErrOpen) || time.Since(before) > time.Second) {
			t.Fatalf("call after b left: %v after %v, want a reply or ErrOpen at once", err, time.Since(before))
		}
		return err == nil
	})
	host := tc.hostOf(t, id)
	if host == b.addr() || (host != tc.a.addr() && host != tc.b.addr()) {
		t.Fatalf("the grain lives on %s after b (%s) left, want a member still there", host, b.addr())
	}
	if addr, n := echoReply(t, reply); addr != host || n != 1 {
		t.Fatalf("reply from %s #%d, want %s #1: a new activation where the grain lives now", addr, n, host)
	}
	if st := snapshot(t, reg, "echo"); st.State != state.Closed || st.Failures != 0 {
		t.Fatalf("snapshot %+v after the probe, want closed, 0 failures", st)
	}

	// And later calls keep going to the grain there
	v, err = reg.Call(ctx, "echo", wrapperspb.String("encore"))
	if err != nil {
		t.Fatalf("call after the move: %v", err)
	}
	if addr, n := echoReply(t, v); addr != host || n != 2 {
		t.Fatalf("reply from %s #%d, want %s #2", addr, n, host)
	}
}
