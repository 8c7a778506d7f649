package etcdprovider

import (
	"context"
	"testing"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// rangeKV records the range of each Get.
type rangeKV struct {
	clientv3.KV
	got [][2]string
}

func (r *rangeKV) Get(_ context.Context, key string, opts ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	op := clientv3.OpGet(key, opts...)
	r.got = append(r.got, [2]string{string(op.KeyBytes()), string(op.RangeBytes())})
	return &clientv3.GetResponse{}, nil
}

func TestAClustersReadHoldsNoOtherClustersMembers(t *testing.T) {
	// Given the client of a member of cluster "shop"
	inner := &rangeKV{}
	kv := scopedKV{KV: inner, cluster: "/protoactor/shop", members: &members{listed: make(chan struct{})}}

	// When protoactor reads its members, and a key of its own
	ctx := context.Background()
	for _, key := range []string{"/protoactor/shop", "/protoactor/shop/shop@1"} {
		if _, err := kv.Get(ctx, key, clientv3.WithPrefix()); err != nil {
			t.Fatal(err)
		}
	}

	// Then the members' read is of "/protoactor/shop/" and what is under it
	// ("shop2" sorts after "shop0"), and the key's read is unchanged
	want := [][2]string{{"/protoactor/shop/", "/protoactor/shop0"}, {"/protoactor/shop/shop@1", "/protoactor/shop/shop@2"}}
	if len(inner.got) != 2 || inner.got[0] != want[0] || inner.got[1] != want[1] {
		t.Fatalf("reads %q, want %q", inner.got, want)
	}
}
