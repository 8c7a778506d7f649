package cluster

import (
	"strings"
	"testing"
	"time"
)

// When the member a grain lives on leaves gracefully, it deletes its key
// from etcd at once, so the others drop it without waiting for its lease,
// and the breaker's calls find the grain again on a member still there.
func TestEtcdMemberLeavesGracefully(t *testing.T) {
	ec := etcdClusterFor(t)
	// Given a third member, d, and a breaker on r in front of a grain on d
	d := ec.join(t)
	ec.members(t, 3, 5*time.Second)
	id := ec.identityOn(t, "leaving", d.addr)
	key := "leaving/" + id
	ec.r.do(t, "register "+key+" "+id+" 1 300ms 2s")
	if reply := ec.r.do(t, "call "+key+" hello"); !strings.HasPrefix(reply, d.addr+" ") {
		t.Fatalf("first call: %q, want from d (%s)", reply, d.addr)
	}

	// When d leaves gracefully
	left, err := d.leave(15 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// Then it has left etcd cleanly, within protoactor's fixed 2 s and a margin
	if took := leftAfter(t, left); !strings.Contains(left, "deregister=false timeout=false etcd_goroutines=0") || took > 4*time.Second {
		t.Fatalf("d: %q, want a clean leave within 4 s that ends the etcd client's goroutines", left)
	}
	// And r's provider dropped it before its lease could expire
	ec.members(t, 2, etcdLease/2)
	// And the breaker's calls find the grain on r or b, and stay there
	var host string
	eventually(t, 5*time.Second, "a call answered by a member still there", func() bool {
		reply, err := ec.r.ask("call " + key + " again")
		if err != nil {
			t.Fatal(err)
		}
		host, _, _ = strings.Cut(strings.TrimPrefix(reply, "ok "), " ")
		return strings.HasPrefix(reply, "ok ")
	})
	if host != ec.r.addr && host != ec.b.addr {
		t.Fatalf("answered from %s after d (%s) left, want r (%s) or b (%s)", host, d.addr, ec.r.addr, ec.b.addr)
	}
	if reply := ec.r.do(t, "call "+key+" encore"); !strings.HasPrefix(reply, host+" ") {
		t.Fatalf("next call: %q, want from %s", reply, host)
	}
}

// leftAfter is how long a member took to leave, from its LEFT line.
func leftAfter(t *testing.T, left string) time.Duration {
	t.Helper()
	f := strings.Fields(left)
	if len(f) < 2 {
		t.Fatalf("LEFT line %q", left)
	}
	d, err := time.ParseDuration(f[1])
	if err != nil {
		t.Fatalf("LEFT line %q: %v", left, err)
	}
	return d
}
