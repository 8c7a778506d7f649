package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/remote"

	"github.com/tripwire-go/tripwire/remotekeepalive"
)

// keepaliveFlagNames are the flags of the gRPC keepalive of protoactor's
// remote, which node and demo -remote share.
var keepaliveFlagNames = []string{"keepalive", "keepalive-timeout"}

// keepaliveFlags is the keepalive of this process's remote.
type keepaliveFlags struct{ time, timeout time.Duration }

// define defines the keepalive flags on fs, with remotekeepalive's defaults.
func (k *keepaliveFlags) define(fs *flag.FlagSet) {
	fs.DurationVar(&k.time, "keepalive", remotekeepalive.DefaultTime,
		"ping a peer node whose connection has been silent this long (at least 10s; 0: no keepalive,\n"+
			"protoactor's default, which leaves a connection stuck for a minute after a silent partition)")
	fs.DurationVar(&k.timeout, "keepalive-timeout", remotekeepalive.DefaultTimeout,
		"close a connection whose ping or data goes unanswered this long, and dial anew")
}

// options are the remote's options for the flags: none with -keepalive 0,
// which a -keepalive-timeout of its own would have no part in. Bad values
// are remotekeepalive.ErrInvalidConfig.
func (k keepaliveFlags) options() ([]remote.ConfigOption, error) {
	if k.time == 0 {
		if k.timeout != remotekeepalive.DefaultTimeout && k.timeout != 0 {
			return nil, fmt.Errorf("-keepalive-timeout %v: %w: it has no effect with -keepalive 0", k.timeout, remotekeepalive.ErrInvalidConfig)
		}
		return nil, nil
	}
	opts, err := remotekeepalive.Options(remotekeepalive.Config{Time: k.time, Timeout: k.timeout})
	if err != nil {
		return nil, fmt.Errorf("-keepalive %v -keepalive-timeout %v: %w", k.time, k.timeout, err)
	}
	return opts, nil
}

// String says what the flags do, for a command's first line.
func (k keepaliveFlags) String() string {
	if k.time == 0 {
		return "no keepalive"
	}
	timeout := k.timeout
	if timeout == 0 {
		timeout = remotekeepalive.DefaultTimeout // what a zero Config field is
	}
	return fmt.Sprintf("keepalive %v, timeout %v", k.time, timeout)
}
