package etcdprovider

import (
	"fmt"
	"time"

	"go.uber.org/zap"
)

// Config is where etcd is and how long to wait for it. Only Endpoints is
// required.
type Config struct {
	// Endpoints are etcd's client addresses ("127.0.0.1:2379").
	Endpoints []string
	// BaseKey prefixes the members' keys, BaseKey/cluster/member. Default
	// "/protoactor", as in protoactor's etcd.New. Clusters of any names
	// can share one etcd and BaseKey: a member reads only the keys under
	// BaseKey/its cluster's name/ (protoactor's own provider also read
	// those of every cluster whose name begins with its own).
	BaseKey string
	// DialTimeout is the etcd client's (clientv3.Config.DialTimeout).
	// The client dials in the background, so it does not bound reaching
	// etcd: the first request's Timeout does. Default 5 s, as in
	// protoactor's etcd.New.
	DialTimeout time.Duration
	// Timeout bounds every request the provider makes to etcd: joining,
	// granting the lease, leaving (each attempt of it). The lease's
	// keepalive is a stream: a member that cannot renew is dropped by the
	// others when its lease (3 s) expires. Default 5 s.
	Timeout time.Duration
	// Logger is the etcd client's logger. Default: none (zap.NewNop).
	Logger *zap.Logger
}

// The defaults of zero Config fields.
const (
	DefaultBaseKey     = "/protoactor"
	DefaultDialTimeout = 5 * time.Second
	DefaultTimeout     = 5 * time.Second
)

// withDefaults returns c with its zero fields set, or ErrInvalidConfig.
func (c Config) withDefaults() (Config, error) {
	switch {
	case len(c.Endpoints) == 0:
		return c, fmt.Errorf("%w: no endpoint", ErrInvalidConfig)
	case c.DialTimeout < 0 || c.Timeout < 0:
		return c, fmt.Errorf("%w: negative duration (DialTimeout %v, Timeout %v)", ErrInvalidConfig, c.DialTimeout, c.Timeout)
	}
	for _, e := range c.Endpoints {
		if e == "" {
			return c, fmt.Errorf("%w: empty endpoint", ErrInvalidConfig)
		}
	}
	if c.BaseKey == "" {
		c.BaseKey = DefaultBaseKey
	}
	if c.DialTimeout == 0 {
		c.DialTimeout = DefaultDialTimeout
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	return c, nil
}
