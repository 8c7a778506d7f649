package remoting

import (
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"
)

// Options returns the remote.ConfigOptions that run protoactor's remote as
// c says, on both sides: WithDialOptions(DialOptions(c)) and
// WithServerOptions(ServerOptions(c)). A bad c is ErrInvalidConfig.
// protoactor's WithDialOptions and WithServerOptions replace, not add: put
// gRPC options of your own in c.DialOptions and c.ServerOptions.
func Options(c Config) ([]remote.ConfigOption, error) {
	dial, err := DialOptions(c)
	if err != nil {
		return nil, err
	}
	serve, err := ServerOptions(c)
	if err != nil {
		return nil, err
	}
	return []remote.ConfigOption{remote.WithDialOptions(dial...), remote.WithServerOptions(serve...)}, nil
}

// DialOptions are the gRPC options of the connections a node dials: its
// TLS (or none: what protoactor's remote uses by default, which
// WithDialOptions replaces), keepalive, connection attempts of at most
// c.ConnectTimeout, the close of a failed attempt's connection and of one
// unused for c.IdleTimeout, then c.DialOptions.
func DialOptions(c Config) ([]grpc.DialOption, error) {
	c, err := c.withDefaults()
	if err != nil {
		return nil, err
	}
	creds := insecure.NewCredentials()
	if c.TLS != nil {
		creds = credentials.NewTLS(c.TLS)
	}
	opts := []grpc.DialOption{
		grpc.WithTransportCredentials(creds),
		// Each of protoactor's attempts is a connection of its own, which
		// closeFailedAttempt closes when it fails: gRPC's backoff between
		// a connection's attempts plays no part, and is kept under
		// ConnectTimeout so as not to lengthen the first attempt (gRPC
		// gives an attempt the longer of the two).
		grpc.WithConnectParams(grpc.ConnectParams{
			Backoff:           backoff.Config{BaseDelay: 500 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: c.ConnectTimeout},
			MinConnectTimeout: c.ConnectTimeout,
		}),
		grpc.WithChainStreamInterceptor(closeFailedAttempt),
		grpc.WithIdleTimeout(c.IdleTimeout),
	}
	if !c.Keepalive.Off {
		opts = append(opts, grpc.WithKeepaliveParams(keepalive.ClientParameters{
			Time: c.Keepalive.Time, Timeout: c.Keepalive.Timeout, PermitWithoutStream: true,
		}))
	}
	return append(opts, slices.Clone(c.DialOptions)...), nil
}

// ServerOptions are the gRPC options of a node's server: its TLS, the
// guard in front of protoactor's endpoint, keepalive (it pings a client
// silent for Keepalive.Time, closes the connection after Keepalive.Timeout
// without an answer, and accepts pings at most every Keepalive.MinTime,
// even between streams), the close of a connection unused for
// c.IdleTimeout, then c.ServerOptions.
func ServerOptions(c Config) ([]grpc.ServerOption, error) {
	c, err := c.withDefaults()
	if err != nil {
		return nil, err
	}
	g := guard{newRefuser(c.Logger, c.OnRefused)}
	params := keepalive.ServerParameters{MaxConnectionIdle: c.IdleTimeout}
	if !c.Keepalive.Off {
		params.Time, params.Timeout = c.Keepalive.Time, c.Keepalive.Timeout
	}
	opts := []grpc.ServerOption{
		grpc.ChainStreamInterceptor(g.stream),
		grpc.ChainUnaryInterceptor(g.unary),
		grpc.KeepaliveParams(params),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: c.Keepalive.MinTime, PermitWithoutStream: true}),
	}
	if c.TLS != nil {
		opts = append(opts, grpc.Creds(credentials.NewTLS(c.TLS)))
	}
	return append(opts, slices.Clone(c.ServerOptions)...), nil
}
