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

// etcdKeys writes members' keys in e, as protoactor's provider writes them.
type etcdKeys struct {
	t   *testing.T
	cli *clientv3.Client
}

// etcdOfOwn starts an etcd for the test alone (stopped when it ends), and
// its keys.
func etcdOfOwn(t *testing.T) (*etcdServer, *etcdKeys) {
	t.Helper()
	needEtcd(t)
	e, err := startEtcd()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.stop)
	return e, newEtcdKeys(t, e)
}

func newEtcdKeys(t *testing.T, e *etcdServer) *etcdKeys {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{e.endpoint}, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cli.Close() })
	return &etcdKeys{t: t, cli: cli}
}

// ctx is a request's: 5 s.
func (k *etcdKeys) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	k.t.Cleanup(cancel)
	return ctx
}

// key is the key of member id of cluster.
func memberKey(cluster, id string) string { return "/protoactor/" + cluster + "/" + cluster + "@" + id }

// put writes member id of cluster, at 127.0.0.1:port; it returns the
// revision of the write.
func (k *etcdKeys) put(cluster, id string, port int) int64 {
	k.t.Helper()
	v := fmt.Sprintf(`{"id":"%s@%s","name":"%s@%s","host":"127.0.0.1","address":"127.0.0.1","port":%d,"kinds":["echo"],"alive":true}`, cluster, id, cluster, id, port)
	r, err := k.cli.Put(k.ctx(), memberKey(cluster, id), v)
	if err != nil {
		k.t.Fatal(err)
	}
	return r.Header.Revision
}

// remove deletes member id of cluster.
func (k *etcdKeys) remove(cluster, id string) {
	k.t.Helper()
	if _, err := k.cli.Delete(k.ctx(), memberKey(cluster, id)); err != nil {
		k.t.Fatal(err)
	}
}

// compact compacts etcd's history up to rev, as its auto-compaction does.
func (k *etcdKeys) compact(rev int64) {
	k.t.Helper()
	if _, err := k.cli.Compact(k.ctx(), rev); err != nil {
		k.t.Fatal(err)
	}
}

// sees reports whether p's topology holds a member at addr.
func sees(t *testing.T, p *etcdPeer, addr string) bool {
	t.Helper()
	return slices.Contains(strings.Split(strings.Fields(p.do(t, "members") + " -")[1], ","), addr)
}
