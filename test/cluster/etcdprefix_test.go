package cluster

import (
	"testing"
	"time"
)

// A member of cluster "shop" took in the members of "shop2" from the same
// etcd: protoactor reads and watches the prefix /protoactor/shop, with no
// "/" after the name.
func TestEtcdMemberSeesNoOtherClusterWhoseNameBeginsWithItsOwn(t *testing.T) {
	e, keys := etcdOfOwn(t)

	// Given a member of cluster "shop2" in etcd (at port 1), and a member
	// of "shop" that starts
	keys.put("shop2", "before", 1)
	shop := (&etcdCluster{name: "shop", etcd: e}).join(t)

	// When another member of each cluster joins (shop2's at port 1, shop's
	// at port 2), and shop's is seen
	keys.put("shop2", "later", 1)
	keys.put("shop", "later", 2)
	eventually(t, 10*time.Second, "the member of shop sees shop@later", func() bool { return sees(t, shop, "127.0.0.1:2") })

	// Then it never counted a member of shop2 (watch events come in order)
	if sees(t, shop, "127.0.0.1:1") {
		t.Fatalf("the member of shop counts members of shop2: %s", shop.do(t, "members"))
	}
}
