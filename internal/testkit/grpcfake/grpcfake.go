// Package grpcfake is an in-memory gRPC invoker for the tests of
// tripwiregrpc, in fake time (testing/synctest), where gRPC's sockets do
// not run.
package grpcfake

import (
	"context"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// Invoker is a grpc.UnaryInvoker (its Invoke method) that counts its calls
// and answers with Fn.
type Invoker struct {
	Calls atomic.Int64
	Fn    func(ctx context.Context, req, reply any, opts []grpc.CallOption) error
}

// Invoke counts the call and answers with Fn.
func (f *Invoker) Invoke(ctx context.Context, _ string, req, reply any, _ *grpc.ClientConn, opts ...grpc.CallOption) error {
	f.Calls.Add(1)
	return f.Fn(ctx, req, reply, opts)
}

// EchoInto answers reply with "echo: " and the request's text (both
// *wrapperspb.StringValue).
func EchoInto(req, reply any) {
	proto.Merge(reply.(proto.Message), wrapperspb.String("echo: "+req.(*wrapperspb.StringValue).GetValue()))
}
