package demo

import (
	"fmt"
	"net"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire"
)

// DependencyName is the actor name under which a Node serves the built-in
// dependency.
const DependencyName = "dependency"

// ErrListen: a Node could not listen on the address it was given.
var ErrListen = fmt.Errorf("demo: node cannot listen")

// Node serves the built-in dependency to other processes: an actor system
// with protoactor's remote listening on one address, and the dependency
// actor under DependencyName. It answers each protobuf request with the
// request itself after its latency.
type Node struct {
	sys    *actor.ActorSystem
	remote *remote.Remote
	calls  atomic.Int64
}

// StartNode starts a node listening on listen ("host:port"; port 0 lets the
// OS choose). Its actor system logs to log (nil: nowhere) and takes opts.
func StartNode(listen string, latency time.Duration, log *zap.Logger, opts ...actor.ConfigOption) (*Node, error) {
	host, portText, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %v", ErrInvalidConfig, listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 || host == "" {
		return nil, fmt.Errorf("%w: %q: want host:port", ErrInvalidConfig, listen)
	}
	if latency < 0 {
		return nil, fmt.Errorf("%w: negative latency", ErrInvalidConfig)
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
	n := &Node{sys: tripwire.NewActorSystem(log, opts...)}
	n.remote = remote.NewRemote(n.sys, remote.Configure(host, port))
	if err := n.start(); err != nil {
		n.sys.Shutdown()
		return nil, err
	}
	if _, err := n.sys.Root.SpawnNamed(DependencyProps(latency, &n.calls), DependencyName); err != nil {
		n.Stop()
		return nil, fmt.Errorf("demo: spawn %s: %w", DependencyName, err)
	}
	return n, nil
}

func (n *Node) start() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrListen, r)
		}
	}()
	n.remote.Start()
	return nil
}

// Address is where other nodes reach this one.
func (n *Node) Address() string { return n.sys.Address() }

// PID is the dependency actor's address, as other nodes use it.
func (n *Node) PID() *actor.PID { return actor.NewPID(n.Address(), DependencyName) }

// Calls is how many requests the dependency has received.
func (n *Node) Calls() int64 { return n.calls.Load() }

// Stop shuts the node down: its server and its connections close, so other
// nodes see its address terminate.
func (n *Node) Stop() {
	n.remote.Shutdown(true)
	n.sys.Shutdown()
}

// System is the node's actor system, for registries that call from it.
func (n *Node) System() *actor.ActorSystem { return n.sys }
