package cluster

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// etcdLease is protoactor's etcd provider's lease on a member's key
// (clusterproviders/etcd/etcd_provider.go:50): how long a crashed member
// stays listed.
const etcdLease = 3 * time.Second

// probeTimeout is the CallTimeout of TestEtcdMemberKilledUnderLoad's
// breaker, so of its probes.
const probeTimeout = time.Second

// When the member a grain lives on is killed (kill -9) while callers keep
// calling it, the breaker opens, and once etcd has dropped the member
// (its lease expires) and OpenTimeout has passed, the probe activates the
// grain on a member still there: the calls follow the grain.
func TestEtcdMemberKilledUnderLoad(t *testing.T) {
	ec := etcdClusterFor(t)
	// Given a third member, c, and a breaker on r in front of a grain on c,
	// with the demo's settings, called by 4 callers
	c := ec.join(t)
	ec.members(t, 3, 5*time.Second)
	id := ec.identityOn(t, "killed", c.addr)
	key := "killed/" + id
	// (a probe's call timeout of 1 s: on a loaded machine the activation
	// of the grain on another member can take longer than 200 ms)
	ec.r.do(t, "register "+key+" "+id+" 3 1s "+probeTimeout.String())
	ec.r.do(t, "load "+key)
	eventually(t, 5*time.Second, "the load reaches the grain", func() bool {
		return strings.HasPrefix(ec.r.do(t, "call "+key+" hello"), c.addr+" ")
	})

	// When c is killed
	killed := time.Now()
	c.kill()

	// Then r's provider drops it once its lease expires
	ec.members(t, 2, etcdLease+2*time.Second)
	dropped := time.Since(killed)
	// And the calls find the grain on a member still there, within the
	// lease, OpenTimeout and a probe's call timeout, and a margin
	bound := etcdLease + time.Second + probeTimeout + 2*time.Second
	stats := fmt.Sprintf("%d %s", killed.UnixNano(), c.addr)
	var s string
	eventually(t, bound, "a call answered by another member", func() bool {
		s = ec.r.do(t, "stats "+key+" "+stats)
		return !strings.Contains(s, "elsewhere=none")
	})
	ec.r.do(t, "unload "+key)
	var open, reason, elsewhere, host string
	var slow, down, rejected, other int
	if _, err := fmt.Sscanf(s, "open=%s reason=%s elsewhere=%s host=%s slow=%d down=%d rejected=%d other=%d",
		&open, &reason, &elsewhere, &host, &slow, &down, &rejected, &other); err != nil {
		t.Fatalf("stats %q: %v", s, err)
	}
	if open == "none" || (host != ec.r.addr && host != ec.b.addr) {
		t.Fatalf("after c was killed: %s; want the breaker opened and a call answered by r (%s) or b (%s)", s, ec.r.addr, ec.b.addr)
	}
	// And later calls go there
	if reply := ec.r.do(t, "call "+key+" again"); !strings.HasPrefix(reply, host+" ") {
		t.Fatalf("call after the move: %q, want from %s", reply, host)
	}
	t.Logf("c killed: open after %s (%s); dropped by r's provider after %v; first success on another member after %s; in between %d calls failed at their deadline, %d at once with ErrTargetDown, %d rejected, %d otherwise",
		open, reason, dropped.Round(time.Millisecond), elsewhere, slow, down, rejected, other)
}
