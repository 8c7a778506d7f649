package etcdprovider

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
)

// bound is the gRPC side of a provider's etcd client: it gives every
// request without a deadline the timeout, and keeps the connection so
// that it can be closed.
type bound struct {
	timeout time.Duration
	conn    atomic.Pointer[grpc.ClientConn]
}

// dialOptions are the options that put b between the etcd client and its
// connection.
func (b *bound) dialOptions() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithChainUnaryInterceptor(b.unary), grpc.WithChainStreamInterceptor(b.stream)}
}

// unary runs one attempt of a request, within the timeout if the caller
// set no deadline. It runs inside the etcd client's retry interceptor; an
// attempt that timed out is not retried (only Unavailable errors are).
func (b *bound) unary(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	b.conn.CompareAndSwap(nil, cc)
	if _, ok := ctx.Deadline(); ok {
		return invoker(ctx, method, req, reply, cc, opts...)
	}
	attempt, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	err := invoker(attempt, method, req, reply, cc, opts...)
	if err != nil && ctx.Err() == nil && attempt.Err() == context.DeadlineExceeded {
		return fmt.Errorf("%w: %s within %v: %v", ErrTimeout, method, b.timeout, err)
	}
	return err
}

// stream opens a stream (a watch, the lease's keepalive), which lives as
// long as its context: it only takes note of the connection.
func (b *bound) stream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	b.conn.CompareAndSwap(nil, cc)
	return streamer(ctx, desc, cc, method, opts...)
}

// close closes the connection, if a request has made one: the client's
// requests and streams fail at once, and nothing redials etcd.
func (b *bound) close() {
	if cc := b.conn.Load(); cc != nil {
		_ = cc.Close()
	}
}
