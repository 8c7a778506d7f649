package node

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire"
)

// Name is the actor name under which a Node serves its echo.
const Name = "dependency"

// Node serves the echo to other processes: an actor system with
// protoactor's remote listening on one address, and the echo under Name. It
// answers each protobuf request with the request itself after its latency.
type Node struct {
	sys    *actor.ActorSystem
	remote *remote.Remote
	calls  atomic.Int64
}

// Start starts a node listening on listen ("host:port"; port 0 lets the
// OS choose). Its actor system logs to log (nil: nowhere) and takes opts.
func Start(listen string, latency time.Duration, log *zap.Logger, opts ...actor.ConfigOption) (*Node, error) {
	return StartWith(listen, latency, log, nil, opts...)
}

// StartWith is Start whose remote also takes remoteOpts (such as
// remotekeepalive.Options).
func StartWith(listen string, latency time.Duration, log *zap.Logger, remoteOpts []remote.ConfigOption, opts ...actor.ConfigOption) (*Node, error) {
	if latency < 0 {
		return nil, fmt.Errorf("%w: negative latency", ErrInvalid)
	}
	if _, _, err := SplitHostPort(listen, true); err != nil {
		return nil, err
	}
	n := &Node{sys: tripwire.NewActorSystem(log, opts...)}
	r, err := EnableRemote(n.sys, listen, remoteOpts...)
	if err != nil {
		n.sys.Shutdown()
		return nil, err
	}
	n.remote = r
	if _, err := n.sys.Root.SpawnNamed(EchoProps(latency, &n.calls), Name); err != nil {
		n.Stop()
		return nil, fmt.Errorf("node: spawn %s: %w", Name, err)
	}
	return n, nil
}

// Address is where other nodes reach this one.
func (n *Node) Address() string { return n.sys.Address() }

// Calls is how many requests the echo has received.
func (n *Node) Calls() int64 { return n.calls.Load() }

// Stop shuts the node down: its server and its connections close, so other
// nodes see its address terminate.
func (n *Node) Stop() {
	n.remote.Shutdown(true)
	n.sys.Shutdown()
}

// System is the node's actor system, for registries that call from it.
func (n *Node) System() *actor.ActorSystem { return n.sys }
