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
	cluster string // BaseKey/name
}

func (s scopedKV) Get(ctx context.Context, key string, opts ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	return s.KV.Get(ctx, scope(key, s.cluster), opts...)
}

// scopedWatcher is the client's Watcher, watching cluster+"/" where
// protoactor watches cluster.
type scopedWatcher struct {
	clientv3.Watcher
	cluster string
}

func (s scopedWatcher) Watch(ctx context.Context, key string, opts ...clientv3.OpOption) clientv3.WatchChan {
	return s.Watcher.Watch(ctx, scope(key, s.cluster), opts...)
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
	c.KV = scopedKV{KV: c.KV, cluster: cluster}
	c.Watcher = scopedWatcher{Watcher: c.Watcher, cluster: cluster}
}
