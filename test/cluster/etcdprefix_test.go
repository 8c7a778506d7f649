package cluster

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// A member of cluster "shop" took in the members of "shop2" from the same
// etcd: protoactor reads and watches the prefix /protoactor/shop, with no
// "/" after the name.
func TestEtcdMemberSeesNoOtherClusterWhoseNameBeginsWithItsOwn(t *testing.T) {
	needEtcd(t)
	e, err := startEtcd()
	if err != nil {
		t.Fatal(err)
	}
	defer e.stop()
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{e.endpoint}, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	put := func(cluster, id string, port int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := cli.Put(ctx, "/protoactor/"+cluster+"/"+cluster+"@"+id, fakeMember(cluster, id, port)); err != nil {
			t.Fatal(err)
		}
	}
	sees := func(p *etcdPeer, addr string) bool {
		return slices.Contains(strings.Split(strings.Fields(p.do(t, "members") + " -")[1], ","), addr)
	}

	// Given a member of cluster "shop2" in etcd (at port 1), and a member
	// of "shop" that starts
	put("shop2", "before", 1)
	shop := (&etcdCluster{name: "shop", etcd: e}).join(t)

	// When another member of each cluster joins (shop2's at port 1, shop's
	// at port 2), and shop's is seen
	put("shop2", "later", 1)
	put("shop", "later", 2)
	eventually(t, 10*time.Second, "the member of shop sees shop@later", func() bool { return sees(shop, "127.0.0.1:2") })

	// Then it never counted a member of shop2 (watch events come in order)
	if sees(shop, "127.0.0.1:1") {
		t.Fatalf("the member of shop counts members of shop2: %s", shop.do(t, "members"))
	}
}

// fakeMember is the value of a member's key, as protoactor writes it.
func fakeMember(cluster, id string, port int) string {
	return fmt.Sprintf(`{"id":"%s@%s","name":"%s@%s","host":"127.0.0.1","address":"127.0.0.1","port":%d,"kinds":["echo"],"alive":true}`, cluster, id, cluster, id, port)
}
