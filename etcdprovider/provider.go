package etcdprovider

import (
	"fmt"
	"log/slog"
	"sync"

	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/etcd"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Provider is protoactor's etcd provider with bounded requests and a
// Shutdown that closes its connection. It is a cluster.ClusterProvider.
type Provider struct {
	inner cluster.ClusterProvider
	conn  interface{ close() }

	mu     sync.Mutex
	logger *slog.Logger // the cluster's, once started
}

// New returns the provider for a member (or client) of a cluster whose
// members find each other in etcd at c.Endpoints. A bad c is
// ErrInvalidConfig.
func New(c Config) (*Provider, error) {
	c, err := c.withDefaults()
	if err != nil {
		return nil, err
	}
	b := &bound{timeout: c.Timeout}
	inner, err := etcd.NewWithConfig(c.BaseKey, clientv3.Config{
		Endpoints:   c.Endpoints,
		DialTimeout: c.DialTimeout,
		DialOptions: b.dialOptions(),
		Logger:      c.Logger,
	})
	if err != nil {
		return nil, fmt.Errorf("etcdprovider: %w", err)
	}
	return &Provider{inner: inner, conn: b}, nil
}

// StartMember registers the member in etcd and follows the others. It is
// called by cluster.StartMember, which panics if it fails.
func (p *Provider) StartMember(c *cluster.Cluster) error {
	p.started(c)
	return p.inner.StartMember(c)
}

// StartClient follows the members without registering.
func (p *Provider) StartClient(c *cluster.Cluster) error {
	p.started(c)
	return p.inner.StartClient(c)
}

// Shutdown deletes the member's key (waiting at most Config.Timeout for
// etcd), then closes the connection to etcd. It is called by
// cluster.Shutdown(true), which ignores its error, so a failure is also
// logged on the cluster's logger. An error is ErrDeregister (and
// ErrTimeout if etcd did not answer).
func (p *Provider) Shutdown(graceful bool) error {
	err := p.inner.Shutdown(graceful)
	p.conn.close()
	if err == nil {
		return nil
	}
	err = fmt.Errorf("%w: %w", ErrDeregister, err)
	p.mu.Lock()
	log := p.logger
	p.mu.Unlock()
	if log != nil {
		log.Error("etcd provider: could not leave etcd; the others drop this member when its lease expires", slog.Any("error", err))
	}
	return err
}

func (p *Provider) started(c *cluster.Cluster) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.logger = c.Logger()
}
