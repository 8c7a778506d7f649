package etcdprovider

import (
	"testing"
)

// A provider that never started (its cluster failed first, or was never
// started) registered nothing: Shutdown returns nil without asking etcd,
// where protoactor's would read the member it never had, and it leaves no
// etcd client behind (goleak, in TestMain).
func TestShutdownBeforeStartLeavesNothingBehind(t *testing.T) {
	p, err := New(Config{Endpoints: []string{"127.0.0.1:1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Shutdown(true); err != nil {
		t.Fatalf("Shutdown before start = %v, want nil", err)
	}
}
