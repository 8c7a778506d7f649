package remoting

import (
	"crypto/tls"
	"fmt"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
)

// Config is how a node's protoactor remote runs: its keepalive, its TLS,
// how long a connection attempt and an unused connection may last, and who
// hears of what the guard refuses. The zero value is the defaults:
// keepalive on, plaintext, the guard on. Use the same Keepalive and TLS
// set-up on every node.
type Config struct {
	// Keepalive of the connections (the zero value: on, the defaults).
	Keepalive Keepalive
	// TLS, if set, runs every connection over mutual TLS with it, on both
	// sides: the node presents its certificate to the peers it dials and
	// to those that dial it, and accepts only peers whose certificate its
	// CAs sign. It must be mutual (ClientAuth
	// tls.RequireAndVerifyClientCert) and hold a certificate; MutualTLS and
	// LoadMutualTLS make one. nil: plaintext, as protoactor's default.
	TLS *tls.Config
	// ConnectTimeout bounds one connection attempt: TCP's connect, TLS's
	// handshake and HTTP/2's preface. protoactor makes an attempt, sleeps
	// 2 s when it fails and tries again, so once a partition heals the next
	// attempt that connects comes at most ConnectTimeout + 2 s minus the
	// kernel's last SYN before ConnectTimeout later (3 s with the default,
	// on Linux's SYN schedules before and since 6.5). At least
	// MinConnectTimeout. Default 4 s.
	ConnectTimeout time.Duration
	// IdleTimeout closes a connection that has carried no stream for this
	// long, on both sides. protoactor keeps one stream open on each
	// connection it uses, so this only ends connections nobody uses.
	// At least MinIdleTimeout. Default 30 s.
	IdleTimeout time.Duration
	// Logger logs what the guard refuses, at most 10 lines a second
	// (nil: nowhere).
	Logger *zap.Logger
	// OnRefused, if set, is told of everything the guard refuses, on the
	// goroutine of the peer's stream, which waits for it: it must not block.
	OnRefused func(Refusal)
	// DialOptions and ServerOptions are gRPC options of your own, applied
	// after this package's.
	DialOptions   []grpc.DialOption
	ServerOptions []grpc.ServerOption
}

// Bounds of Config's durations.
const (
	// MinConnectTimeout: under it an attempt whose first SYN is lost ends
	// before the kernel sends it again (after 1 s).
	MinConnectTimeout = time.Second
	// MinIdleTimeout: under it a connection could close between protoactor
	// dialing it and opening its stream on a loaded machine.
	MinIdleTimeout = time.Second
)

// The defaults of a zero Config field.
const (
	DefaultConnectTimeout = 4 * time.Second
	DefaultIdleTimeout    = 30 * time.Second
)

// withDefaults returns c with its zero fields set to the defaults, or
// ErrInvalidConfig.
func (c Config) withDefaults() (Config, error) {
	k, err := c.Keepalive.withDefaults()
	if err != nil {
		return c, err
	}
	c.Keepalive = k
	if c.ConnectTimeout == 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	switch {
	case c.ConnectTimeout < MinConnectTimeout:
		return c, fmt.Errorf("%w: ConnectTimeout %v is under %v", ErrInvalidConfig, c.ConnectTimeout, MinConnectTimeout)
	case c.IdleTimeout < MinIdleTimeout:
		return c, fmt.Errorf("%w: IdleTimeout %v is under %v", ErrInvalidConfig, c.IdleTimeout, MinIdleTimeout)
	}
	if err := checkTLS(c.TLS); err != nil {
		return c, err
	}
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	return c, nil
}
