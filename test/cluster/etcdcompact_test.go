package cluster

import (
	"testing"
	"time"
)

// A member whose watch of etcd broke while etcd compacted its history
// kept, for the life of its process, a member that had left meanwhile:
// protoactor watches again from the revision of that moment without
// listing the members again.
func TestEtcdMemberThatLeftWhileTheWatchWasAwayIsDropped(t *testing.T) {
	e, keys := etcdOfOwn(t)
	px := newTCPProxy(t, e.endpoint)

	// Given a member that reaches etcd through a proxy, and sees member B (port 3)
	shop := (&etcdCluster{name: "shop", etcd: &etcdServer{endpoint: px.addr}}).join(t)
	keys.put("shop", "B", 3)
	eventually(t, 10*time.Second, "the member sees B", func() bool { return sees(t, shop, "127.0.0.1:3") })

	// When its connection to etcd breaks, B leaves, etcd compacts, and the
	// connection comes back (quicker than its lease's 3 s)
	px.cut()
	keys.remove("shop", "B")
	keys.compact(keys.put("other", "x", 9))
	px.heal()

	// Then once it sees C (port 4), which joins after, it no longer has B
	keys.put("shop", "C", 4)
	eventually(t, 10*time.Second, "the member sees C", func() bool { return sees(t, shop, "127.0.0.1:4") })
	if sees(t, shop, "127.0.0.1:3") {
		t.Fatalf("B left while the member's watch was away, and it still has it: %s", shop.do(t, "members"))
	}
}
