package borrowed

import (
	"reflect"
	"unsafe"
)

// The types EtcdProviderClient reads, named rather than imported: a program
// that imports Tripwire without etcdprovider links no etcd client and no
// gRPC (test/size), and this package is imported by every one.
const (
	etcdProviderPkg  = "github.com/asynkron/protoactor-go/cluster/clusterproviders/etcd"
	etcdProviderType = "Provider"
	etcdClientPkg    = "go.etcd.io/etcd/client/v3"
	etcdClientType   = "Client"
)

// EtcdProviderClient is the etcd client (a *clientv3.Client) of
// protoactor's etcd provider p (a *etcd.Provider), or nil if p is none or
// has none. protoactor keeps the client unexported and never closes it, and
// closing only its gRPC connection leaves the client's lease goroutines
// retrying every 500 ms for the life of the process (its lessor's context
// is not the client's: only Client.Close ends it).
// TestEtcdProviderClientIsTheProvidersClient fails if the field moves.
func EtcdProviderClient(p any) any {
	if !named(reflect.TypeOf(p), etcdProviderPkg, etcdProviderType) {
		return nil
	}
	v := reflect.ValueOf(p)
	if v.IsNil() {
		return nil
	}
	f := v.Elem().FieldByName("client")
	if !f.IsValid() || !named(f.Type(), etcdClientPkg, etcdClientType) || f.IsNil() {
		return nil
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface()
}

// named reports whether t is a pointer to the type pkg.name.
func named(t reflect.Type, pkg, name string) bool {
	return t != nil && t.Kind() == reflect.Pointer && t.Elem().PkgPath() == pkg && t.Elem().Name() == name
}
