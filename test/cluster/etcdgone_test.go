package cluster

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// A member whose etcd is gone still leaves within its provider's timeout
// (plus protoactor's fixed 2 s): protoactor's own provider would wait
// forever to delete its key. Until then its grains keep answering.
func TestEtcdGoneMemberStillLeaves(t *testing.T) {
	needEtcd(t)
	// Given a member alone in a cluster of its own etcd, with a breaker in
	// front of a grain on it
	e, err := startEtcd()
	if err != nil {
		t.Fatal(err)
	}
	defer e.stop()
	const timeout = time.Second
	m, err := startEtcdPeer(fmt.Sprintf("tripwire-etcd-gone-%d", os.Getpid()), e.endpoint, timeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := m.close(); err != nil {
			t.Error(err)
		}
	})
	m.do(t, "register gone lone 3 1s 2s")

	// When etcd dies
	e.kill()
	// Then the grain still answers
	if reply := m.do(t, "call gone hello"); !strings.HasPrefix(reply, m.addr+" ") {
		t.Fatalf("call with etcd gone: %q", reply)
	}
	// And the member leaves within the timeout and protoactor's 2 s, and a
	// margin, reporting that etcd did not answer
	left, err := m.leave(timeout + 2*time.Second + 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if took := leftAfter(t, left); !strings.Contains(left, "deregister=true timeout=true") || took > timeout+2*time.Second+2*time.Second {
		t.Fatalf("member: %q, want ErrDeregister and ErrTimeout within %v", left, timeout+4*time.Second)
	}
	t.Logf("with etcd gone: %s", left)
}
