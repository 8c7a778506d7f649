package etcdprovider

import (
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/tripwire-go/tripwire/internal/borrowed"
)

// clientOf is the etcd client of protoactor's provider p (nil if p is none
// of those). protoactor never closes it, and closing its connection leaves
// the client's lease goroutines retrying every 500 ms for the life of the
// process (its lessor's context is not the client's: only Client.Close ends
// it). The field is unexported: borrowed.EtcdProviderClient reads it, and
// its test fails if the field moves.
func clientOf(p any) *clientv3.Client {
	c, _ := borrowed.EtcdProviderClient(p).(*clientv3.Client)
	return c
}
