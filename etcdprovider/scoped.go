package etcdprovider

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// protoactor's provider reads and watches its cluster's members under the
// prefix BaseKey/name, with no "/" after the name (etcd_provider.go:277,
// :327), so a member of cluster "shop" took in the members of "shop2",
// "shop-eu" and any other cluster whose name begins with its own, in the
// same etcd. scopedKV and scopedWatcher, put in the client's place when
// the cluster starts, read that prefix as BaseKey/name/: the members' keys
// are BaseKey/name/id, so a cluster's own members are all under it.

// scopedKV is the client's KV, reading cluster+"/" where protoactor reads
// cluster.
type scopedKV struct {
	clientv3.KV
	cluster string   // BaseKey/name
	members *members // what the cluster's watch has passed on (resync.go)
}

func (s scopedKV) Get(ctx context.Context, key string, opts ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	resp, err := s.KV.Get(ctx, scope(key, s.cluster), opts...)
	if err == nil && key == s.cluster {
		s.members.list(resp)
	}
	return resp, err
}

// scopedWatcher is the client's Watcher, watching cluster+"/" where
// protoactor watches cluster.
type scopedWatcher struct {
	clientv3.Watcher
	cluster string
	members *members
}

// Watch is the watch of the cluster's members that members keeps going
// (resync.go), where protoactor watches cluster, else the client's.
func (s scopedWatcher) Watch(ctx context.Context, key string, opts ...clientv3.OpOption) clientv3.WatchChan {
	if key == s.cluster {
		return s.members.watch(ctx, s.Watcher)
	}
	return s.Watcher.Watch(ctx, key, opts...)
}

// scope is key, or cluster+"/" if key is cluster: a prefix (the options
// are applied to the key given, WithPrefix's end among them) that holds
// the cluster's members and no other cluster's.
func scope(key, cluster string) string {
	if key == cluster {
		return cluster + "/"
	}
	return key
}

// scopeClient makes c read and watch only the members of cluster name
// under baseKey.
func scopeClient(c *clientv3.Client, baseKey, name string) {
	cluster := baseKey + "/" + name
	m := &members{client: c, prefix: cluster + "/", listed: make(chan struct{})}
	c.KV = scopedKV{KV: c.KV, cluster: cluster, members: m}
	c.Watcher = scopedWatcher{Watcher: c.Watcher, cluster: cluster, members: m}
}
