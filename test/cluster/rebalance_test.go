package cluster

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
)

// Regression (task/grain.go, Grain.Call and locate): a grain also moves when
// a member joins and takes it over (disthash re-places it; the old member
// stops its activation). The PID cached on the registry's member then names
// a dead activation, and the next call fails with ErrTargetDown (a dead
// letter) instead of reaching the grain where it lives now: one failure per
// moved grain, enough to open a breaker with Threshold 1. protoactor's own
// cluster.Request drops the cached PID and looks again on a dead letter
// (cluster/default_context.go:92-96).
// Grain.Call now does the same: when a PID that came from the cache turns out
// dead (DeadLetterResponse, or Terminated with reason NotFound: the message
// was never delivered), it forgets it and looks the grain up once more,
// within the call's deadline.
func TestGrainFollowedWhenRebalanced(t *testing.T) {
	tc := clusterFor(t)
	ctx := context.Background()
	// Given breakers (Threshold 1) in front of 24 grains on b, each called
	// once, so a has their PIDs cached
	reg := newRegistry(t, tc)
	ids := make([]string, 24)
	old := make(map[string]*actor.PID)
	for i := range ids {
		ids[i] = tc.identityOn(t, "bordeaux", tc.b.addr())
		register(t, tc, reg, ids[i], ids[i], tripwire.Settings{Threshold: 1})
		if _, err := reg.Call(ctx, ids[i], wrapperspb.String("bonjour")); err != nil {
			t.Fatalf("first call to %s: %v", ids[i], err)
		}
		old[ids[i]], _ = tc.a.c.PidCache.Get(ids[i], echoKind)
	}

	// When a member c joins, takes some of them over, and b stops those
	c := tc.join(t)
	var moved []string
	for _, id := range ids {
		if tc.hostOf(t, id) == c.addr() {
			moved = append(moved, id)
			within(t, 5*time.Second, "b stops the activation of "+id+" that c took over", deathOf(t, tc.a.system(), old[id]))
		}
	}
	if len(moved) == 0 {
		t.Fatalf("c took over none of %d grains", len(ids))
	}

	// Then the next call to each of them reaches it on c, and counts as no
	// failure. One exception: while the topology settles, the activation the
	// call finds may itself be stopping (Terminated with reason Stopped).
	// Such a call may have been processed, so it is not sent again: it fails
	// once, as documented. A stale cached address (a dead letter, or
	// NotFound) must never fail a call.
	reached := 0
	defer func() {
		if reached == 0 {
			t.Errorf("no call reached any of the %d moved grains", len(moved))
		}
	}()
	for _, id := range moved {
		v, err := reg.Call(ctx, id, wrapperspb.String("rebonjour"))
		if err != nil && strings.HasSuffix(err.Error(), ": Stopped") {
			t.Logf("call to %s found an activation stopping under it: %v", id, err)
			continue
		}
		if err != nil {
			t.Errorf("call to %s after it moved to c: %v (state %v)", id, err, snapshot(t, reg, id).State)
			continue
		}
		reached++
		if addr, n := echoReply(t, v); addr != c.addr() || n != 1 {
			t.Errorf("%s: reply from %s #%d, want c (%s) #1", id, addr, n, c.addr())
		}
	}
}

// deathOf is closed once pid has terminated, as seen by a watcher on sys.
func deathOf(t *testing.T, sys *actor.ActorSystem, pid *actor.PID) <-chan struct{} {
	t.Helper()
	dead := make(chan struct{})
	watcher := sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch ctx.Message().(type) {
		case *actor.Started:
			ctx.Watch(pid)
		case *actor.Terminated:
			close(dead)
			ctx.Stop(ctx.Self())
		}
	}))
	t.Cleanup(func() { sys.Root.Stop(watcher) })
	return dead
}
