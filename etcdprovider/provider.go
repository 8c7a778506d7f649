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
	// newInner makes protoactor's provider, and its etcd client, at the
	// first start: a provider that never starts has no connection to close.
	newInner func() (cluster.ClusterProvider, error)
	conn     interface{ close() }
	baseKey  string

	mu     sync.Mutex
	inner  cluster.ClusterProvider // nil until started
	client *clientv3.Client        // inner's, nil until started
	logger *slog.Logger            // the cluster's, once started
}

// New returns the provider for a member (or client) of a cluster whose
// members find each other in etcd at c.Endpoints. A bad c is
// ErrInvalidConfig. It makes its etcd client when the cluster starts it.
func New(c Config) (*Provider, error) {
	c, err := c.withDefaults()
	if err != nil {
		return nil, err
	}
	b := &bound{timeout: c.Timeout}
	newInner := func() (cluster.ClusterProvider, error) {
		inner, err := etcd.NewWithConfig(c.BaseKey, clientv3.Config{
			Endpoints:   c.Endpoints,
			DialTimeout: c.DialTimeout,
			DialOptions: b.dialOptions(),
			Logger:      c.Logger,
		})
		if err != nil {
			return nil, fmt.Errorf("etcdprovider: %w", err)
		}
		return inner, nil
	}
	return &Provider{newInner: newInner, conn: b, baseKey: c.BaseKey}, nil
}

// StartMember registers the member in etcd and follows the others. It is
// called by cluster.StartMember, which panics if it fails.
func (p *Provider) StartMember(c *cluster.Cluster) error {
	inner, err := p.start(c)
	if err != nil {
		return err
	}
	return inner.StartMember(c)
}

// StartClient follows the members without registering.
func (p *Provider) StartClient(c *cluster.Cluster) error {
	inner, err := p.start(c)
	if err != nil {
		return err
	}
	return inner.StartClient(c)
}

// Shutdown deletes the member's key (waiting at most Config.Timeout for
// etcd), then closes the connection to etcd. It is called by
// cluster.Shutdown(true), which ignores its error, so a failure is also
// logged on the cluster's logger. An error is ErrDeregister (and
// ErrTimeout if etcd did not answer). A provider that never started
// registered nothing: it returns nil.
func (p *Provider) Shutdown(graceful bool) error {
	p.mu.Lock()
	inner := p.inner
	p.mu.Unlock()
	if inner == nil {
		return nil // protoactor's Shutdown would read the member it never had
	}
	err := inner.Shutdown(graceful)
	p.mu.Lock()
	client := p.client
	p.mu.Unlock()
	if client != nil {
		_ = client.Close() // its lease's loops, which outlive the connection
	}
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

// start takes note of c's logger and makes protoactor's provider, the first
// time.
func (p *Provider) start(c *cluster.Cluster) (cluster.ClusterProvider, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.logger = c.Logger()
	if p.inner == nil {
		inner, err := p.newInner()
		if err != nil {
			return nil, err
		}
		p.inner = inner
		p.client = clientOf(inner)
		if p.client != nil {
			scopeClient(p.client, p.baseKey, c.Config.Name)
		}
	}
	return p.inner, nil
}
