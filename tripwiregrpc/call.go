package tripwiregrpc

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/tripwire-go/tripwire/state"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/protobuf/proto"
)

// call is one unary call on its way through a key's breaker: the message of
// the registry's call, run by its target on a worker. It owns what the
// invoker writes — the reply, the header, the trailer, the peer — so a call
// whose caller was answered without it (timed out, cancelled) writes into
// nothing the caller can see; they are copied to the caller's only when the
// caller gets the call's own answer.
type call struct {
	method   string
	req      any // the caller's request, or a copy of it
	reply    any // a reply of the call's own
	cc       *grpc.ClientConn
	invoker  grpc.UnaryInvoker
	opts     []grpc.CallOption // the caller's, writing into the call
	classify func(error) state.Verdict
	verdict  state.Verdict // the worker's alone: set by run, read by verdictOf
	err      error         // the invoker's, once run returned
	ran      bool          // run called the invoker (set before run returns)

	header, trailer metadata.MD
	peer            peer.Peer

	mu        sync.Mutex
	abandoned bool // the caller was answered without the call
}

// errAbandoned is what a target returns for a call whose caller has gone
// before it began; no caller sees it.
var errAbandoned = errors.New("tripwiregrpc: the caller was answered before the call began")

// newCall prepares a call of method; it fails with ErrInvalidCall for a
// reply it cannot make a fresh one of.
func newCall(method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts []grpc.CallOption, classify func(error) state.Verdict) (*call, error) {
	fresh, err := freshReply(reply)
	if err != nil {
		return nil, err
	}
	c := &call{method: method, req: copyRequest(req), reply: fresh, cc: cc, invoker: invoker, classify: classify}
	c.opts = make([]grpc.CallOption, len(opts))
	for i, o := range opts {
		switch o.(type) {
		case grpc.HeaderCallOption:
			o = grpc.Header(&c.header)
		case *grpc.HeaderCallOption:
			o = grpc.Header(&c.header)
		case grpc.TrailerCallOption:
			o = grpc.Trailer(&c.trailer)
		case *grpc.TrailerCallOption:
			o = grpc.Trailer(&c.trailer)
		case grpc.PeerCallOption:
			o = grpc.Peer(&c.peer)
		case *grpc.PeerCallOption:
			o = grpc.Peer(&c.peer)
		}
		c.opts[i] = o
	}
	return c, nil
}

// copyRequest copies a protobuf request, so that a call still running after
// its caller was answered never reads a message the caller changes again.
// Other messages (a codec of another kind) are passed as they are.
func copyRequest(req any) any {
	if m, ok := req.(proto.Message); ok && m.ProtoReflect().IsValid() {
		return proto.Clone(m)
	}
	return req
}

// freshReply makes an empty reply of reply's type.
func freshReply(reply any) (any, error) {
	if m, ok := reply.(proto.Message); ok {
		r := m.ProtoReflect()
		if !r.IsValid() {
			return nil, fmt.Errorf("%w: reply is a nil %T", ErrInvalidCall, reply)
		}
		return r.Type().New().Interface(), nil
	}
	v := reflect.ValueOf(reply)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, fmt.Errorf("%w: reply %T is neither a protobuf message nor a non-nil pointer", ErrInvalidCall, reply)
	}
	return reflect.New(v.Type().Elem()).Interface(), nil
}

// run invokes the call, on a worker, with the call's context: its deadline
// goes to the server, and it ends when the breaker gives the call up.
func (c *call) run(ctx context.Context) (*call, error) {
	c.mu.Lock()
	gone := c.abandoned
	c.mu.Unlock()
	if gone {
		c.verdict = state.Ignore
		return c, errAbandoned
	}
	c.err = c.invoker(ctx, c.method, c.req, c.reply, c.cc, c.opts...)
	c.ran = true
	c.verdict = judge(c.classify, c.err)
	return c, reported(c.verdict, c.err)
}

// take is the caller's, once the registry answered with the call: it
// copies what the invoker wrote into the caller's reply and call options,
// and returns the invoker's error, unchanged. Everything it reads was
// written before the target returned.
func (c *call) take(reply any, opts []grpc.CallOption) error {
	if c.err == nil {
		if m, ok := reply.(proto.Message); ok {
			proto.Reset(m)
			proto.Merge(m, c.reply.(proto.Message))
		} else {
			reflect.ValueOf(reply).Elem().Set(reflect.ValueOf(c.reply).Elem())
		}
	}
	for _, o := range opts {
		switch o := o.(type) {
		case grpc.HeaderCallOption:
			*o.HeaderAddr = c.header
		case *grpc.HeaderCallOption:
			*o.HeaderAddr = c.header
		case grpc.TrailerCallOption:
			*o.TrailerAddr = c.trailer
		case *grpc.TrailerCallOption:
			*o.TrailerAddr = c.trailer
		case grpc.PeerCallOption:
			*o.PeerAddr = c.peer
		case *grpc.PeerCallOption:
			*o.PeerAddr = c.peer
		}
	}
	return c.err
}

// abandon is the caller's, once the registry answered without the call: a
// call not begun yet never will be. One in flight was cancelled by the
// breaker already (its context ends when the call is given up), and writes
// only into the call.
func (c *call) abandon() {
	c.mu.Lock()
	c.abandoned = true
	c.mu.Unlock()
}
