package remoting_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"

	"github.com/tripwire-go/tripwire/remoting"
)

// protoactor dials a connection for each attempt to reach a node and never
// closes one whose attempt failed; the dial options close it, and leave a
// connection whose attempt succeeded to protoactor.
func TestAFailedAttemptsConnectionIsClosed(t *testing.T) {
	opts, err := remoting.DialOptions(remoting.Config{})
	if err != nil {
		t.Fatal(err)
	}
	dial := func(addr string) *grpc.ClientConn {
		cc, err := grpc.Dial(addr, opts...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cc.Close() })
		return cc
	}
	connect := &remote.RemoteMessage{MessageType: &remote.RemoteMessage_ConnectRequest{ConnectRequest: &remote.ConnectRequest{}}}

	// When no node listens at the address, Then the stream fails and its connection is closed
	cc := dial(closedPort(t))
	if _, err := remote.NewRemotingClient(cc).Receive(context.Background()); err == nil {
		t.Fatal("a stream to nobody")
	}
	if s := cc.GetState(); s != connectivity.Shutdown {
		t.Errorf("after a failed stream the connection is %v, want Shutdown", s)
	}

	// When the node ends the stream before its connect response, Then the connection is closed
	cc = dial(serveStreams(t, func(s grpc.ServerStream) error { return errors.New("no") }))
	stream, err := remote.NewRemotingClient(cc).Receive(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_ = stream.Send(connect)
	if _, err := stream.Recv(); err == nil {
		t.Fatal("a response from a node that ended the stream")
	}
	if s := cc.GetState(); s != connectivity.Shutdown {
		t.Errorf("after a failed connect the connection is %v, want Shutdown", s)
	}

	// When the node answers, Then the connection is protoactor's: a later
	// failure of the stream leaves it open (protoactor closes it)
	end := make(chan struct{})
	cc = dial(serveStreams(t, func(s grpc.ServerStream) error {
		if err := s.RecvMsg(&remote.RemoteMessage{}); err != nil {
			return err
		}
		if err := s.SendMsg(&remote.RemoteMessage{MessageType: &remote.RemoteMessage_ConnectResponse{ConnectResponse: &remote.ConnectResponse{}}}); err != nil {
			return err
		}
		<-end
		return errors.New("gone")
	}))
	stream, err = remote.NewRemotingClient(cc).Receive(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(connect); err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); err != nil {
		t.Fatal(err)
	}
	close(end)
	if _, err := stream.Recv(); err == nil {
		t.Fatal("a second response")
	}
	if s := cc.GetState(); s == connectivity.Shutdown {
		t.Error("the connection of an established stream was closed")
	}
}

// closedPort is an address of 127.0.0.1 where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// serveStreams starts a gRPC server on 127.0.0.1 whose every stream handle
// serves; the test's cleanup stops it.
func serveStreams(t *testing.T, handle func(grpc.ServerStream) error) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer(grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error { return handle(stream) }))
	done := make(chan struct{})
	go func() { defer close(done); _ = s.Serve(l) }()
	t.Cleanup(func() {
		s.Stop()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop")
		}
	})
	return l.Addr().String()
}
