package tripwiregrpc_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/internal/testkit/grpcfake"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiregrpc"
)

// In fake time (testing/synctest) the breaker's timing is exact; the
// invoker under the interceptor is then a function, since gRPC's sockets
// do not run in a bubble.

const fakeKey = "fake/tripwire.test.Echo/Say"

// fixedKey gives every call fakeKey.
func fixedKey(context.Context, *grpc.ClientConn, string) (string, error) { return fakeKey, nil }

// fakeInterceptor is an interceptor on the bubble's registry, with fakeKey.
func fakeInterceptor(t *testing.T, e *testkit.Env, opts ...tripwiregrpc.Option) grpc.UnaryClientInterceptor {
	t.Helper()
	i, err := tripwiregrpc.UnaryClientInterceptor(e.Reg, append([]tripwiregrpc.Option{tripwiregrpc.WithKey(fixedKey)}, opts...)...)
	if err != nil {
		t.Fatalf("UnaryClientInterceptor: %v", err)
	}
	return i
}

// advance lets fake time pass, then waits for the bubble to settle.
func advance(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

func TestCircuitTimingInFakeTime(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a server that answers Unavailable, behind a breaker that
		// opens on the 3rd failure for 10s
		var up atomic.Bool
		inv := &grpcfake.Invoker{Fn: func(_ context.Context, req, reply any, _ []grpc.CallOption) error {
			if !up.Load() {
				return status.Error(codes.Unavailable, "down")
			}
			grpcfake.EchoInto(req, reply)
			return nil
		}}
		intercept := fakeInterceptor(t, e, tripwiregrpc.WithSettings(tripwire.Settings{Threshold: 3, OpenTimeout: 10 * time.Second}))
		say := func() (string, error) {
			out := new(wrapperspb.StringValue)
			err := intercept(context.Background(), "/tripwire.test.Echo/Say", wrapperspb.String("hi"), out, nil, inv.Invoke)
			return out.GetValue(), err
		}

		// When three calls fail, the circuit is open for exactly 10s
		for range 3 {
			if _, err := say(); status.Code(err) != codes.Unavailable || errors.Is(err, tripwire.ErrOpen) {
				t.Fatalf("call: %v; want the server's Unavailable", err)
			}
		}
		testkit.WantCircuit(t, e.Reg, fakeKey, state.Open, 3)
		if _, err := say(); !errors.Is(err, tripwire.ErrOpen) || status.Code(err) != codes.Unavailable {
			t.Fatalf("call to an open circuit: %v", err)
		}
		if n := inv.Calls.Load(); n != 3 {
			t.Fatalf("%d calls invoked; want 3", n)
		}
		advance(10*time.Second - time.Nanosecond)
		wantState(t, e.Reg, fakeKey, state.Open)
		advance(time.Nanosecond)
		wantState(t, e.Reg, fakeKey, state.HalfOpen)

		// Then the probe, once the server is back, closes it
		up.Store(true)
		if got, err := say(); err != nil || got != "echo: hi" {
			t.Fatalf("probe: %q, %v", got, err)
		}
		testkit.WantCircuit(t, e.Reg, fakeKey, state.Closed, 0)
	})
}

func TestACallGivenUpNeverTouchesTheCallersMessagesAgain(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an invoker that ignores its context and, 3s later, reads the
		// request and writes the reply and the header — behind a 1s
		// CallTimeout
		wrote := make(chan struct{})
		inv := &grpcfake.Invoker{Fn: func(_ context.Context, req, reply any, opts []grpc.CallOption) error {
			time.Sleep(3 * time.Second)
			grpcfake.EchoInto(req, reply)
			for _, o := range opts {
				if h, ok := o.(grpc.HeaderCallOption); ok {
					*h.HeaderAddr = metadata.Pairs("late", "yes")
				}
			}
			close(wrote)
			return nil
		}}
		intercept := fakeInterceptor(t, e, tripwiregrpc.WithSettings(tripwire.Settings{CallTimeout: time.Second}))

		// When the call times out, and its caller goes on using its request,
		// reply and header (the race detector watches)
		req, reply := wrapperspb.String("hi"), new(wrapperspb.StringValue)
		var header metadata.MD
		err := intercept(context.Background(), "/tripwire.test.Echo/Say", req, reply, nil, inv.Invoke, grpc.Header(&header))
		if !errors.Is(err, tripwire.ErrTimeout) || status.Code(err) != codes.DeadlineExceeded {
			t.Fatalf("call: %v; want ErrTimeout, DeadlineExceeded", err)
		}
		req.Value = "changed by the caller"
		reply.Value = "the caller's"
		header = metadata.Pairs("mine", "yes")
		<-wrote

		// Then the late call wrote into its own copies only
		if reply.GetValue() != "the caller's" || header.Get("late") != nil {
			t.Fatalf("reply %q, header %v: the abandoned call wrote into the caller's", reply.GetValue(), header)
		}
	})
}

func TestTheInvokerGetsACopyOfTheRequestAndAReplyOfItsOwn(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		req, reply := wrapperspb.String("hi"), wrapperspb.String("stale")
		inv := &grpcfake.Invoker{Fn: func(_ context.Context, r, out any, _ []grpc.CallOption) error {
			if r == any(req) || !proto.Equal(r.(proto.Message), req) || out == any(reply) || out.(*wrapperspb.StringValue).GetValue() != "" {
				t.Errorf("the invoker got request %v (the caller's: %v), reply %v (the caller's: %v)", r, r == any(req), out, out == any(reply))
			}
			grpcfake.EchoInto(r, out)
			return nil
		}}
		intercept := fakeInterceptor(t, e)
		if err := intercept(context.Background(), "/m", req, reply, nil, inv.Invoke); err != nil || reply.GetValue() != "echo: hi" {
			t.Fatalf("call: %q, %v; want the reply copied into the caller's, stale value gone", reply.GetValue(), err)
		}
	})
}

func TestANonProtobufReplyIsCopiedToo(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		type answer struct{ Text string }
		inv := &grpcfake.Invoker{Fn: func(_ context.Context, _, out any, _ []grpc.CallOption) error {
			out.(*answer).Text = "from a codec of its own"
			return nil
		}}
		var got answer
		if err := fakeInterceptor(t, e)(context.Background(), "/m", "req", &got, nil, inv.Invoke); err != nil || got.Text != "from a codec of its own" {
			t.Fatalf("call: %+v, %v", got, err)
		}
	})
}

func TestIdleBreakersStop(t *testing.T) {
	logger, logs := observed()
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		inv := &grpcfake.Invoker{Fn: func(_ context.Context, req, reply any, _ []grpc.CallOption) error {
			grpcfake.EchoInto(req, reply)
			return nil
		}}
		intercept := fakeInterceptor(t, e)
		call := func() error {
			return intercept(context.Background(), "/m", wrapperspb.String("hi"), new(wrapperspb.StringValue), nil, inv.Invoke)
		}
		if err := call(); err != nil {
			t.Fatal(err)
		}
		advance(tripwiregrpc.DefaultIdleTimeout - time.Nanosecond)
		if n := logs.FilterMessage("breaker passivated").Len(); n != 0 {
			t.Fatal("passivated early")
		}
		advance(time.Nanosecond)
		if n := logs.FilterMessage("breaker passivated").Len(); n != 1 {
			t.Fatalf("%d passivations after DefaultIdleTimeout; want 1", n)
		}
		if err := call(); err != nil || inv.Calls.Load() != 2 {
			t.Fatalf("call after passivation: %v, %d invoked", err, inv.Calls.Load())
		}
	}, tripwire.WithLogger(logger))
}
