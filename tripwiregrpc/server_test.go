package tripwiregrpc_test

import (
	"context"
	"net"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiregrpc"
)

// Real time, real sockets: generous bounds, and conditions polled rather
// than slept for.
const (
	patience = 5 * time.Second
	poll     = 5 * time.Millisecond
)

// The methods of the test service, registered by hand (no generated code):
// Say answers its request; Code answers with the status code its request
// names ("14" is Unavailable), or OK.
const (
	methodSay  = "/tripwire.test.Echo/Say"
	methodCode = "/tripwire.test.Echo/Code"
)

// echo is the test service, whose behaviour a test changes as it goes.
type echo struct {
	calls atomic.Int64
	code  atomic.Int32 // the code Say answers with; OK: the request's text
	hang  atomic.Bool  // Say holds every call until its context ends
	ended chan hungCall
}

// hungCall is what a held call saw: its deadline and when its context ended.
type hungCall struct {
	deadline time.Time
	ended    time.Time
}

func (e *echo) say(ctx context.Context, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
	e.calls.Add(1)
	if e.hang.Load() {
		d, _ := ctx.Deadline()
		<-ctx.Done()
		e.ended <- hungCall{deadline: d, ended: time.Now()}
		return nil, ctx.Err()
	}
	if c := codes.Code(e.code.Load()); c != codes.OK {
		return nil, status.Error(c, "echo says "+c.String())
	}
	_ = grpc.SetHeader(ctx, metadata.Pairs("echo-header", "h"))
	_ = grpc.SetTrailer(ctx, metadata.Pairs("echo-trailer", "t"))
	return wrapperspb.String("echo: " + in.GetValue()), nil
}

func (e *echo) answer(_ context.Context, in *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
	e.calls.Add(1)
	n, err := strconv.Atoi(in.GetValue())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	if c := codes.Code(n); c != codes.OK {
		return nil, status.Error(c, "as asked")
	}
	return wrapperspb.String("ok"), nil
}

// unary is the handler of a method of the echo service.
func unary(f func(*echo, context.Context, *wrapperspb.StringValue) (*wrapperspb.StringValue, error)) func(any, context.Context, func(any) error, grpc.UnaryServerInterceptor) (any, error) {
	return func(srv any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
		in := new(wrapperspb.StringValue)
		if err := dec(in); err != nil {
			return nil, err
		}
		return f(srv.(*echo), ctx, in)
	}
}

var echoDesc = grpc.ServiceDesc{
	ServiceName: "tripwire.test.Echo",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{
		{MethodName: "Say", Handler: unary((*echo).say)},
		{MethodName: "Code", Handler: unary((*echo).answer)},
	},
}

// newServer serves the echo service on 127.0.0.1 until the test ends.
func newServer(t *testing.T) (*echo, string) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e := &echo{ended: make(chan hungCall, 16)}
	s := grpc.NewServer()
	s.RegisterService(&echoDesc, e)
	go func() { _ = s.Serve(lis) }()
	t.Cleanup(s.Stop)
	return e, lis.Addr().String()
}

// rig is a registry in real time and a client connection through the
// interceptor on it.
type rig struct {
	reg *tripwire.Registry
	cc  *grpc.ClientConn
}

func newRig(t *testing.T, addr string, opts ...tripwiregrpc.Option) *rig {
	t.Helper()
	reg := testkit.Start(t, testkit.NewSystem(t))
	intercept, err := tripwiregrpc.UnaryClientInterceptor(reg, opts...)
	if err != nil {
		t.Fatalf("UnaryClientInterceptor: %v", err)
	}
	cc, err := grpc.Dial(addr, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithUnaryInterceptor(intercept))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cc.Close() })
	return &rig{reg: reg, cc: cc}
}

// say calls Say with text.
func (r *rig) say(ctx context.Context, text string, opts ...grpc.CallOption) (string, error) {
	out := new(wrapperspb.StringValue)
	err := r.cc.Invoke(ctx, methodSay, wrapperspb.String(text), out, opts...)
	return out.GetValue(), err
}

// waitFor polls cond until it holds, failing after patience. It must run
// on the test's goroutine; others use eventually.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if !eventually(cond) {
		t.Fatalf("after %v: %s", patience, what)
	}
}

// eventually polls cond until it holds, or reports false after patience.
func eventually(cond func() bool) bool {
	for end := time.Now().Add(patience); !cond(); time.Sleep(poll) {
		if time.Now().After(end) {
			return false
		}
	}
	return true
}

// wantState checks key's circuit.
func wantState(t *testing.T, reg *tripwire.Registry, key string, want state.State) {
	t.Helper()
	if s, err := reg.State(key); err != nil || s != want {
		t.Fatalf("State(%q) = %v, %v; want %v", key, s, err, want)
	}
}
