package demo

import (
	"fmt"
	"net"
	"strconv"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// validateRemote checks a Remote config: the pattern and an address go
// together, and the address is host:port.
func (c Config) validateRemote() error {
	if c.Pattern != Remote || c.Remote == "" {
		return fmt.Errorf("%w: pattern %q with remote address %q: the remote pattern and an address go together", ErrInvalidConfig, c.Pattern, c.Remote)
	}
	if _, _, err := splitHostPort(c.Remote, false); err != nil {
		return err
	}
	return nil
}

// splitHostPort parses "host:port"; port 0 is allowed only if anyPort.
func splitHostPort(addr string, anyPort bool) (string, int, error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("%w: address %q: %v", ErrInvalidConfig, addr, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 || (port == 0 && !anyPort) || host == "" {
		return "", 0, fmt.Errorf("%w: address %q: want host:port", ErrInvalidConfig, addr)
	}
	return host, port, nil
}

// remoteDependency is the PID of the Node dependency at addr.
func remoteDependency(addr string) *actor.PID { return actor.NewPID(addr, DependencyName) }

// request is what callers send: a protobuf message for a Node on another
// process (anything else cannot cross the wire), a string otherwise.
func (c Config) request() any {
	if c.Pattern == Remote {
		return wrapperspb.String("request")
	}
	return "request"
}

// EnableRemote starts protoactor's remote on sys, listening on listen
// ("host:port", port 0: chosen by the OS), so a registry on sys can call
// actors of other processes and hear their replies. It reports ErrListen
// instead of protoactor's panic when the address cannot be used. opts go
// to remote.Configure (such as remotekeepalive.Options).
func EnableRemote(sys *actor.ActorSystem, listen string, opts ...remote.ConfigOption) (*remote.Remote, error) {
	host, port, err := splitHostPort(listen, true)
	if err != nil {
		return nil, err
	}
	// remote.Start panics when it cannot listen: try the address first.
	probe, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrListen, err)
	}
	if port == 0 {
		port = probe.Addr().(*net.TCPAddr).Port
	}
	_ = probe.Close()
	r := remote.NewRemote(sys, remote.Configure(host, port, opts...))
	if err := startRemote(r); err != nil {
		return nil, err
	}
	return r, nil
}

func startRemote(r *remote.Remote) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %v", ErrListen, p)
		}
	}()
	r.Start()
	return nil
}
