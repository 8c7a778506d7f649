package node

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/tripwire-go/tripwire/internal/system"
	"go.uber.org/zap"
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
	shed   atomic.Int64
}

// Config is what a node serves, where, and how.
type Config struct {
	Listen  string        // host:port; port 0 lets the OS choose
	Latency time.Duration // how long the echo takes to answer
	// Shed puts remoting.ShedExpired in front of the echo: a request whose
	// deadline header has passed when the echo gets to it is dropped, not
	// answered, and counted by Shed instead of Calls.
	Shed   bool
	Log    *zap.Logger           // the actor system's (nil: nowhere)
	Remote []remote.ConfigOption // for remote.Configure (such as remoting.Options)
	System []actor.ConfigOption  // for the actor system
}

// Start starts a node listening on listen ("host:port"; port 0 lets the
// OS choose). Its actor system logs to log (nil: nowhere) and takes opts.
func Start(listen string, latency time.Duration, log *zap.Logger, opts ...actor.ConfigOption) (*Node, error) {
	return StartConfig(Config{Listen: listen, Latency: latency, Log: log, System: opts})
}

// StartWith is Start whose remote also takes remoteOpts (such as
// remoting.Options).
func StartWith(listen string, latency time.Duration, log *zap.Logger, remoteOpts []remote.ConfigOption, opts ...actor.ConfigOption) (*Node, error) {
	return StartConfig(Config{Listen: listen, Latency: latency, Log: log, Remote: remoteOpts, System: opts})
}

// StartConfig starts the node cfg describes.
func StartConfig(cfg Config) (*Node, error) {
	if cfg.Latency < 0 {
		return nil, fmt.Errorf("%w: negative latency", ErrInvalid)
	}
	if _, _, err := SplitHostPort(cfg.Listen, true); err != nil {
		return nil, err
	}
	n := &Node{}
	props := EchoProps(cfg.Latency, &n.calls)
	if cfg.Shed {
		var err error
		if props, err = SheddingEchoProps(cfg.Latency, &n.calls, &n.shed); err != nil {
			return nil, err
		}
	}
	n.sys = system.New(cfg.Log, cfg.System...)
	r, err := EnableRemote(n.sys, cfg.Listen, cfg.Remote...)
	if err != nil {
		n.sys.Shutdown()
		return nil, err
	}
	n.remote = r
	if _, err := n.sys.Root.SpawnNamed(props, Name); err != nil {
		n.Stop()
		return nil, fmt.Errorf("node: spawn %s: %w", Name, err)
	}
	return n, nil
}

// Address is where other nodes reach this one.
func (n *Node) Address() string { return n.sys.Address() }

// Calls is how many requests the echo has run.
func (n *Node) Calls() int64 { return n.calls.Load() }

// Shed is how many requests the echo dropped unrun because their deadline
// had passed (Config.Shed).
func (n *Node) Shed() int64 { return n.shed.Load() }

// Stop shuts the node down: its server and its connections close, so other
// nodes see its address terminate.
func (n *Node) Stop() {
	n.remote.Shutdown(true)
	n.sys.Shutdown()
}

// System is the node's actor system, for registries that call from it.
func (n *Node) System() *actor.ActorSystem { return n.sys }
