package cluster

import (
	"context"
	"testing"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/grain"
)

// newRegistry starts a registry on member a; the test's cleanup shuts it
// down (before the cluster's cleanup, which was registered earlier).
func newRegistry(t *testing.T, tc *testCluster) *tripwire.Registry {
	t.Helper()
	reg, err := tripwire.Start(tripwire.WithActorSystem(tc.a.system()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := reg.Shutdown(context.Background()); err != nil {
			t.Errorf("registry shutdown: %v", err)
		}
	})
	return reg
}

// register puts a breaker under key in front of the echo grain of id, in
// the cluster of tc's member a (where the registry runs).
func register(t *testing.T, tc *testCluster, reg *tripwire.Registry, key, id string, s tripwire.Settings) {
	t.Helper()
	target, err := grain.Target(tc.a.c, echoKind, id)
	if err == nil {
		err = reg.Register(context.Background(), key, target, s)
	}
	if err != nil {
		t.Fatalf("Register(%q, grain.Target(%q, %q)): %v", key, echoKind, id, err)
	}
}

// snapshot is key's breaker as it is now.
func snapshot(t *testing.T, reg *tripwire.Registry, key string) tripwire.Snapshot {
	t.Helper()
	s, err := reg.Snapshot(context.Background(), key)
	if err != nil {
		t.Fatalf("Snapshot(%q): %v", key, err)
	}
	return s
}
