package remoting

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/asynkron/protoactor-go/remote"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The methods of protoactor's remote service (remote/remote_grpc.pb.go):
// the stream every message between two nodes goes by, and the two calls
// protoactor's endpoint reader answers with a panic
// (remote/endpoint_reader.go).
const (
	receiveMethod     = "/remote.Remoting/Receive"
	listMethod        = "/remote.Remoting/ListProcesses"
	diagnosticsMethod = "/remote.Remoting/GetProcessDiagnostics"
)

// guard stands in front of protoactor's endpoint reader, on the server
// side of a node: it looks at every message batch a peer sends before
// protoactor decodes it, and drops the messages protoactor would crash on
// (a type this process does not link, a serializer it does not have, an
// index outside the batch's tables...), reporting each; the rest of the
// batch, the peer's stream and every other connection carry on. What it
// did not foresee and protoactor panics on anyway ends that peer's stream
// instead of the process.
type guard struct{ *refuser }

// stream is the guard as a gRPC stream interceptor.
func (g guard) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
	defer g.recoverAs(ss.Context(), info.FullMethod, &err)
	if info.FullMethod == receiveMethod {
		ss = &guardedStream{ServerStream: ss, g: g}
	}
	return handler(srv, ss)
}

// unary is the guard as a gRPC unary interceptor.
func (g guard) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (_ any, err error) {
	if info.FullMethod == listMethod || info.FullMethod == diagnosticsMethod {
		err := fmt.Errorf("%w: %s", ErrUnimplemented, info.FullMethod)
		g.refuse(ctx, Refusal{Method: info.FullMethod, Err: err})
		return nil, status.Error(codes.Unimplemented, err.Error())
	}
	defer g.recoverAs(ctx, info.FullMethod, &err)
	return handler(ctx, req)
}

// recoverAs turns a panic of the handler into a refusal and an error of
// the call.
func (g guard) recoverAs(ctx context.Context, method string, err *error) {
	p := recover()
	if p == nil {
		return
	}
	g.log.Error("protoactor panicked on a peer's message; its stream is closed, the node goes on",
		zap.String("method", method), zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
	g.refuse(ctx, Refusal{Method: method, Err: fmt.Errorf("%w: %v", ErrPanicked, p)})
	*err = status.Error(codes.Internal, "remoting: the node could not handle a message")
}

// guardedStream is a peer's stream of batches, checked as they arrive.
type guardedStream struct {
	grpc.ServerStream
	g guard
}

// RecvMsg receives the peer's next message and drops what the guard
// refuses from it.
func (s *guardedStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	if rm, ok := m.(*remote.RemoteMessage); ok {
		if b := rm.GetMessageBatch(); b != nil {
			s.g.filter(s.Context(), b)
		}
	}
	return nil
}

// filter drops from b, in place, the envelopes the guard refuses.
func (g guard) filter(ctx context.Context, b *remote.MessageBatch) {
	kept := b.Envelopes[:0]
	for _, e := range b.Envelopes {
		typeName, err := check(b, e)
		if err != nil {
			g.refuse(ctx, Refusal{Method: receiveMethod, Type: typeName, Serializer: e.GetSerializerId(), Err: err})
			continue
		}
		kept = append(kept, e)
	}
	clear(b.Envelopes[len(kept):])
	b.Envelopes = kept
}
