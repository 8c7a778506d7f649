package remote

import (
	"context"
	"net"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc"

	"github.com/tripwire-go/tripwire/remoting"
)

// syscallZero is the signal that only checks that a process exists.
const syscallZero = syscall.Signal(0)

// remotingSpec is how a child's remote runs.
type remotingSpec struct {
	// On runs it with remoting.Options: keepalive, the guard, bounded
	// connections. Off: protoactor's remote as it is.
	On bool
	// TLS, with On, runs mutual TLS with these files (nil: plaintext).
	TLS *tlsFiles
}

// tlsFiles are a node's certificate, key and CAs, as PEM files.
type tlsFiles struct{ Cert, Key, CA string }

// options are the remote's options for s, counting the guard's refusals
// in refused and, if dialLog is set, saying the time of every TCP dial.
func (s remotingSpec) options(refused *atomic.Int64, dialLog func(time.Time)) ([]remote.ConfigOption, error) {
	if !s.On {
		return nil, nil
	}
	c := remoting.Config{OnRefused: func(remoting.Refusal) { refused.Add(1) }}
	if s.TLS != nil {
		tlsCfg, err := remoting.LoadMutualTLS(s.TLS.Cert, s.TLS.Key, s.TLS.CA)
		if err != nil {
			return nil, err
		}
		c.TLS = tlsCfg
	}
	if dialLog != nil {
		var d net.Dialer
		c.DialOptions = append(c.DialOptions, grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) {
			dialLog(time.Now())
			return d.DialContext(ctx, "tcp", addr)
		}))
	}
	return remoting.Options(c)
}
