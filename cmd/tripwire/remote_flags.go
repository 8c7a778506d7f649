package main

import (
	"flag"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/remote"
	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire/remoting"
)

// remoteFlagNames are the flags of this process's protoactor remote (see
// remoting.Config), which node and demo -remote share.
var remoteFlagNames = []string{"keepalive", "keepalive-timeout", "tls-cert", "tls-key", "tls-ca"}

// remoteFlags are how this process's remote runs.
type remoteFlags struct {
	time, timeout time.Duration
	cert, key, ca string
	refused       *atomic.Int64 // what the guard refused
}

// define defines the remote's flags on fs, with remoting's defaults.
func (r *remoteFlags) define(fs *flag.FlagSet) {
	r.refused = new(atomic.Int64)
	fs.DurationVar(&r.time, "keepalive", remoting.DefaultKeepaliveTime,
		"ping a peer node whose connection has been silent this long (at least 10s; 0: no keepalive,\n"+
			"protoactor's default, which leaves a connection stuck for a minute after a silent partition)")
	fs.DurationVar(&r.timeout, "keepalive-timeout", remoting.DefaultKeepaliveTimeout,
		"close a connection whose ping or data goes unanswered this long, and dial anew")
	fs.StringVar(&r.cert, "tls-cert", "", "this node's certificate (PEM), for mutual TLS with its peers: with -tls-key and -tls-ca\n"+
		"(none: plaintext, which anyone who can reach the port can talk)")
	fs.StringVar(&r.key, "tls-key", "", "the key of -tls-cert (PEM)")
	fs.StringVar(&r.ca, "tls-ca", "", "the CA certificates (PEM) that sign the peers this node accepts and dials")
}

// config is the remoting.Config of the flags, logging the guard's
// refusals to log. A -keepalive-timeout with -keepalive 0, or TLS files
// that do not go together or cannot be read, are remoting.ErrInvalidConfig.
func (r remoteFlags) config(log *zap.Logger) (remoting.Config, error) {
	c := remoting.Config{Logger: log, OnRefused: func(remoting.Refusal) { r.refused.Add(1) }}
	if r.time == 0 {
		if r.timeout != remoting.DefaultKeepaliveTimeout && r.timeout != 0 {
			return c, fmt.Errorf("-keepalive-timeout %v: %w: it has no effect with -keepalive 0", r.timeout, remoting.ErrInvalidConfig)
		}
		c.Keepalive.Off = true
	} else {
		c.Keepalive.Time, c.Keepalive.Timeout = r.time, r.timeout
	}
	switch {
	case r.cert == "" && r.key == "" && r.ca == "":
	case r.cert == "" || r.key == "" || r.ca == "":
		return c, fmt.Errorf("%w: -tls-cert, -tls-key and -tls-ca go together", remoting.ErrInvalidConfig)
	default:
		tlsCfg, err := remoting.LoadMutualTLS(r.cert, r.key, r.ca)
		if err != nil {
			return c, err
		}
		c.TLS = tlsCfg
	}
	return c, nil
}

// options are the remote's options for the flags, logging the guard's
// refusals to log.
func (r remoteFlags) options(log *zap.Logger) ([]remote.ConfigOption, error) {
	c, err := r.config(log)
	if err != nil {
		return nil, err
	}
	opts, err := remoting.Options(c) // (the TLS of LoadMutualTLS is valid)
	if err != nil {
		return nil, fmt.Errorf("-keepalive %v -keepalive-timeout %v: %w", r.time, r.timeout, err)
	}
	return opts, nil
}

// Refused is how many messages and calls of peers the guard refused.
func (r remoteFlags) Refused() int64 {
	if r.refused == nil {
		return 0
	}
	return r.refused.Load()
}

// String says what the flags do, for a command's first line.
func (r remoteFlags) String() string {
	ka := "no keepalive"
	if r.time != 0 {
		timeout := r.timeout
		if timeout == 0 {
			timeout = remoting.DefaultKeepaliveTimeout // what a zero field is
		}
		ka = fmt.Sprintf("keepalive %v, timeout %v", r.time, timeout)
	}
	if r.cert == "" {
		return ka + ", plaintext"
	}
	return ka + ", mutual TLS"
}
