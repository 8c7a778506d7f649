// Package remoting runs protoactor's remote across machines the way a
// production cluster needs it, in one call: Options gives the
// remote.ConfigOptions of a node, the same on every node, for
// remote.Configure (and so for cluster.Configure).
//
//	tlsCfg, err := remoting.LoadMutualTLS("node.pem", "node-key.pem", "ca.pem")
//	if err != nil { ... }
//	opts, err := remoting.Options(remoting.Config{TLS: tlsCfg, Logger: logger})
//	if err != nil { ... }
//	remote.NewRemote(sys, remote.Configure("10.0.0.5", 7070, opts...)).Start()
//
// What the options do, each for a fault protoactor's remote does not
// handle on its own:
//
//   - Keepalive. protoactor sets none: after a silent partition its
//     connection can stay stuck in TCP retransmission for about a minute
//     after the network heals. Each side pings a silent connection, closes
//     it when the ping or data goes unanswered for Keepalive.Timeout, and
//     the server accepts its peers' pings instead of closing the connection
//     with "too many pings".
//   - Mutual TLS (Config.TLS). protoactor talks plaintext to anyone who
//     can reach its port; with TLS, each node proves itself with a
//     certificate of the cluster's CA and accepts only peers that do, and a
//     peer without one is refused at the handshake, before protoactor sees
//     a byte.
//   - A guard in front of protoactor's endpoint. A message whose type this
//     process does not link, or for a serializer it does not have, makes
//     protoactor dereference nil or index past a slice on a gRPC server
//     goroutine: the whole process exits, whoever sent it (an honest peer
//     one build ahead, or anyone who can reach the port). The guard looks
//     at every batch first, drops such messages, and reports each
//     (Config.Logger, Config.OnRefused); the node and its connections go
//     on.
//   - Bounded connections. protoactor never closes the connection of a
//     failed connection attempt, which redials in the background for 30
//     minutes and connects once the node is back: several connections per
//     node after an outage. A failed attempt's connection is closed at
//     once, and any connection unused for Config.IdleTimeout on either side.
//   - Short connection attempts (Config.ConnectTimeout), so that the
//     attempt under way when a partition heals does not keep the node
//     unreachable for long.
//
// ProbeOnReconnect goes with them: the breakers of a registry in front of
// actors on a node probe as soon as protoactor connects to that node
// again, instead of waiting out their OpenTimeout.
//
// # Deadlines that travel
//
// A Tripwire call to an actor on another machine carries its deadline in
// the DeadlineHeader (to an actor on this machine, in its sender).
// ShedExpired, a receive middleware for the target's props, drops a message
// whose caller has given up before the actor runs it; CallDeadline reads a
// call's deadline in the actor's own code, and DeadlineEnvelope sends a
// message with a deadline from outside Tripwire. WithDeadlineHeader and
// WithoutDeadlineHeader choose, per target, when the header goes.
package remoting
