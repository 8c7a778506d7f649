package etcdprovider

import (
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/cluster/clusterproviders/etcd"
	clientv3 "go.etcd.io/etcd/client/v3"
)

func TestClientOfFindsProtoactorsClient(t *testing.T) {
	// Given protoactor's provider, made with a client that dials lazily
	p, err := etcd.NewWithConfig("/test", clientv3.Config{Endpoints: []string{"127.0.0.1:1"}, DialTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	// Then its client is found, and closing it ends its goroutines
	c := clientOf(p)
	if c == nil {
		t.Fatal("no client found in protoactor's etcd provider: has its field moved?")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// and anything else has none
	if clientOf(leaver{}) != nil || clientOf((*etcd.Provider)(nil)) != nil {
		t.Fatal("a client found in what is no etcd provider")
	}
}
