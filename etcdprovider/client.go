package etcdprovider

import (
	"reflect"
	"unsafe"

	"github.com/asynkron/protoactor-go/cluster/clusterproviders/etcd"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// clientOf is the etcd client of protoactor's provider p (nil if p is none
// of those). protoactor never closes it, and closing its connection leaves
// the client's lease goroutines retrying every 500 ms for the life of the
// process (its lessor's context is not the client's: only Client.Close ends
// it). The field is unexported, so it is read by reflection; protoactor is
// pinned at one commit, and TestClientOfFindsProtoactorsClient fails if the
// field moves.
func clientOf(p any) *clientv3.Client {
	ep, ok := p.(*etcd.Provider)
	if !ok || ep == nil {
		return nil
	}
	f := reflect.ValueOf(ep).Elem().FieldByName("client")
	if !f.IsValid() || f.Type() != reflect.TypeFor[*clientv3.Client]() {
		return nil
	}
	return *(**clientv3.Client)(unsafe.Pointer(f.UnsafeAddr()))
}
