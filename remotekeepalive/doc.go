// Package remotekeepalive runs protoactor's remote with gRPC keepalive, so
// that a connection to a node that went silent (a network partition that
// drops packets, a host that froze) is closed in seconds instead of waiting
// in TCP retransmission backoff.
//
// protoactor's remote keeps one gRPC connection per address and sets no
// keepalive. After a silent partition its connection can stay stuck for
// about a minute after the network heals, and every call to that node
// fails at its deadline until then. With the options of this package, each
// side pings a silent connection, closes it when the ping or data it sent
// goes unanswered for Config.Timeout, and dials anew; the server accepts
// the peers' pings (its enforcement policy) instead of closing the
// connection with "too many pings".
//
// Use the same Config on every node, and pass its options to
// remote.Configure:
//
//	opts, err := remotekeepalive.Options(remotekeepalive.Config{})  // zero: the defaults
//	if err != nil { ... }
//	r := remote.NewRemote(sys, remote.Configure("10.0.0.5", 7070, opts...))
//	r.Start()
//
// Options sets the remote's dial and server options as a whole
// (protoactor's WithDialOptions and WithServerOptions replace, not add);
// to add gRPC options of your own, append them to DialOptions and
// ServerOptions and pass those to remote.WithDialOptions and
// remote.WithServerOptions yourself.
package remotekeepalive
