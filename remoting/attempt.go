package remoting

import (
	"context"
	"sync"

	"google.golang.org/grpc"
)

// closeFailedAttempt is a gRPC stream client interceptor that closes the
// connection of a connection attempt of protoactor's that failed.
//
// protoactor's endpoint writer dials a new gRPC connection for each attempt
// to reach a node, opens its stream and exchanges a connect request and
// response on it (remote/endpoint_writer.go:80-125); when a step fails it
// sleeps and dials again, and never closes the failed attempt's
// connection, which goes on redialing the node in the background until
// gRPC's idle timeout. Once the node is back they all connect: after a
// 60 s partition a caller held 8 connections to a node, after a 15 s
// outage 7. This closes the connection when the stream cannot be opened,
// or fails before the connect response arrives; after that, protoactor
// closes it itself when the stream fails (its writer stops).
func closeFailedAttempt(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	s, err := streamer(ctx, desc, cc, method, opts...)
	if method != receiveMethod {
		return s, err
	}
	if err != nil {
		_ = cc.Close()
		return nil, err
	}
	return &attemptStream{ClientStream: s, cc: cc}, nil
}

// attemptStream is protoactor's stream to a node, which closes its
// connection if it fails before its first message from the node arrives.
type attemptStream struct {
	grpc.ClientStream
	cc *grpc.ClientConn

	mu      sync.Mutex
	settled bool // the node's first message arrived (protoactor owns cc from then on), or cc is closed
}

func (s *attemptStream) SendMsg(m any) error {
	err := s.ClientStream.SendMsg(m)
	if err != nil {
		s.failed()
	}
	return err
}

func (s *attemptStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if err != nil {
		s.failed()
		return err
	}
	s.mu.Lock()
	s.settled = true
	s.mu.Unlock()
	return nil
}

// failed closes the connection if the attempt failed before connecting.
func (s *attemptStream) failed() {
	s.mu.Lock()
	attempt := !s.settled
	s.settled = true
	s.mu.Unlock()
	if attempt {
		_ = s.cc.Close()
	}
}
