package node

import (
	"fmt"
	"net"
	"strconv"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
)

// SplitHostPort parses "host:port"; port 0 is allowed only if anyPort.
func SplitHostPort(addr string, anyPort bool) (string, int, error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("%w: address %q: %v", ErrInvalid, addr, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 || (port == 0 && !anyPort) || host == "" {
		return "", 0, fmt.Errorf("%w: address %q: want host:port", ErrInvalid, addr)
	}
	return host, port, nil
}

// EnableRemote starts protoactor's remote on sys, listening on listen
// ("host:port", port 0: chosen by the OS), so a registry on sys can call
// actors of other processes and hear their replies. It reports ErrListen
// instead of protoactor's panic when the address cannot be used. opts go
// to remote.Configure (such as remoting.Options).
func EnableRemote(sys *actor.ActorSystem, listen string, opts ...remote.ConfigOption) (*remote.Remote, error) {
	host, port, err := SplitHostPort(listen, true)
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
