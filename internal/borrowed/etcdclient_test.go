package borrowed_test

import (
	"slices"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/cluster/clusterproviders/etcd"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/tripwire-go/tripwire/internal/borrowed"
)

// The client found in protoactor's etcd provider is the one it made from
// the config it was given, and closing it ends its goroutines (TestMain
// checks): a protoactor whose provider moved or renamed its client would
// fail it.
func TestEtcdProviderClientIsTheProvidersClient(t *testing.T) {
	// Given protoactor's provider, made with a client that dials lazily
	endpoints := []string{"127.0.0.1:1"}
	p, err := etcd.NewWithConfig("/test", clientv3.Config{Endpoints: endpoints, DialTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	// Then its client is found
	c, _ := borrowed.EtcdProviderClient(p).(*clientv3.Client)
	if c == nil {
		t.Fatal("no client found in protoactor's etcd provider: has its field moved?")
	}
	if !slices.Equal(c.Endpoints(), endpoints) {
		t.Errorf("the client found dials %v, the provider's %v", c.Endpoints(), endpoints)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// and anything else has none
	for name, v := range map[string]any{
		"nil":              nil,
		"a nil provider":   (*etcd.Provider)(nil),
		"an etcd client":   c,
		"a provider value": etcd.Provider{},
	} {
		if got := borrowed.EtcdProviderClient(v); got != nil {
			t.Errorf("%s: a client found: %v", name, got)
		}
	}
}
