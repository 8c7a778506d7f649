package remotekeepalive

import (
	"time"

	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"
)

// Options returns the remote.ConfigOptions that run protoactor's remote
// with c's keepalive on both sides: WithDialOptions(DialOptions(c)) and
// WithServerOptions(ServerOptions(c)). A bad c is ErrInvalidConfig.
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

// DialOptions are the gRPC options of the connections a node dials: no
// TLS (what protoactor's remote uses by default, which WithDialOptions
// replaces), pings after c.Time of silence, closing after c.Timeout
// without an answer, and connection attempts of at most c.Timeout.
func DialOptions(c Config) ([]grpc.DialOption, error) {
	c, err := c.withDefaults()
	if err != nil {
		return nil, err
	}
	return []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: c.Time, Timeout: c.Timeout, PermitWithoutStream: true}),
		// protoactor dials an address anew after a failed attempt (2 s
		// apart, 5 times: remote/endpoint_writer.go:44-55), so an attempt
		// that waits out gRPC's default 20 s on a dropped SYN only delays
		// the reconnection once the network heals.
		grpc.WithConnectParams(grpc.ConnectParams{
			Backoff:           backoff.Config{BaseDelay: time.Second, Multiplier: 1.6, Jitter: 0.2, MaxDelay: c.Time},
			MinConnectTimeout: c.Timeout,
		}),
	}, nil
}

// ServerOptions are the gRPC options of a node's server: it pings a
// client silent for c.Time, closes the connection after c.Timeout without
// an answer, and accepts pings at most every c.MinTime, even between
// streams.
func ServerOptions(c Config) ([]grpc.ServerOption, error) {
	c, err := c.withDefaults()
	if err != nil {
		return nil, err
	}
	return []grpc.ServerOption{
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: c.Time, Timeout: c.Timeout}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: c.MinTime, PermitWithoutStream: true}),
	}, nil
}
