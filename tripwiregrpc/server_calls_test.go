package tripwiregrpc_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiregrpc"
)

func TestFailingServerOpensTheCircuitAndAProbeClosesIt(t *testing.T) {
	// Given a server whose Say answers Unavailable, behind a breaker that
	// opens on the 2nd failure and probes 1s later (long enough that no stall
	// of the test process half-opens it before the open checks)
	e, addr := newServer(t)
	e.code.Store(int32(codes.Unavailable))
	r := newRig(t, addr, tripwiregrpc.WithSettings(tripwire.Settings{Threshold: 2, OpenTimeout: time.Second}))
	key := addr + methodSay

	// When two calls fail
	for i := range 2 {
		_, err := r.say(context.Background(), "hi")
		// Then each caller gets the server's own status
		if s, _ := status.FromError(err); s.Code() != codes.Unavailable || s.Message() != "echo says Unavailable" {
			t.Fatalf("call %d: %v; want the server's Unavailable", i, err)
		}
	}
	// and the circuit is open: the next call is refused without reaching
	// the server, with ErrOpen and the status code Unavailable
	wantState(t, r.reg, key, state.Open)
	_, err := r.say(context.Background(), "hi")
	var oe *state.OpenError
	if !errors.Is(err, tripwire.ErrOpen) || !errors.As(err, &oe) || oe.Key != key || status.Code(err) != codes.Unavailable {
		t.Fatalf("call to an open circuit: %v (code %v); want an OpenError of %q, Unavailable", err, status.Code(err), key)
	}
	if n := e.calls.Load(); n != 2 {
		t.Fatalf("the server got %d calls; want 2", n)
	}

	// When the server recovers and the circuit half-opens
	e.code.Store(int32(codes.OK))
	waitFor(t, "the circuit half-opens", func() bool { s, _ := r.reg.State(key); return s == state.HalfOpen })

	// Then the probe succeeds and closes it
	if got, err := r.say(context.Background(), "back"); err != nil || got != "echo: back" {
		t.Fatalf("probe: %q, %v", got, err)
	}
	wantState(t, r.reg, key, state.Closed)
}

func TestCodesCountAsDefaultClassifySays(t *testing.T) {
	// Given a breaker per asked-for code (the key func reads the outgoing
	// metadata), opening on its first failure
	_, addr := newServer(t)
	perCode := func(ctx context.Context, cc *grpc.ClientConn, method string) (string, error) {
		md, _ := metadata.FromOutgoingContext(ctx)
		k, err := tripwiregrpc.MethodKey(ctx, cc, method)
		return k + "/" + md.Get("code")[0], err
	}
	r := newRig(t, addr, tripwiregrpc.WithKey(perCode), tripwiregrpc.WithSettings(tripwire.Settings{Threshold: 1, OpenTimeout: time.Hour}))

	for code, want := range map[codes.Code]state.State{
		codes.OK: state.Closed, codes.NotFound: state.Closed, codes.InvalidArgument: state.Closed,
		codes.Internal: state.Closed, codes.Unknown: state.Closed, codes.PermissionDenied: state.Closed,
		codes.Canceled: state.Closed, codes.Unavailable: state.Open, codes.DeadlineExceeded: state.Open,
		codes.ResourceExhausted: state.Open,
	} {
		// When the server answers with that code
		n := strconv.Itoa(int(code))
		ctx := metadata.AppendToOutgoingContext(context.Background(), "code", n)
		err := r.cc.Invoke(ctx, methodCode, wrapperspb.String(n), new(wrapperspb.StringValue))
		if status.Code(err) != code {
			t.Fatalf("asked for %v, got %v", code, err)
		}
		// Then it counted as DefaultClassify says
		wantState(t, r.reg, addr+methodCode+"/"+n, want)
	}
}

func TestHungServerIsCancelledAtCallTimeout(t *testing.T) {
	// Given a server that holds every call, behind a 200ms CallTimeout
	e, addr := newServer(t)
	e.hang.Store(true)
	r := newRig(t, addr, tripwiregrpc.WithSettings(tripwire.Settings{CallTimeout: 200 * time.Millisecond}))

	// When a call is made
	start := time.Now()
	_, err := r.say(context.Background(), "hi")
	took := time.Since(start)

	// Then it fails at the deadline with the code DeadlineExceeded: the
	// breaker's ErrTimeout (which errors.Is also matches with
	// context.DeadlineExceeded), or gRPC's own status, when gRPC's timer
	// for the same deadline fires first
	if status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("call to a hung server: %v (code %v); want DeadlineExceeded", err, status.Code(err))
	}
	if errors.Is(err, tripwire.ErrTimeout) != errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("call to a hung server: %v; ErrTimeout, if it is one, must match context.DeadlineExceeded", err)
	}
	if took < 200*time.Millisecond || took > 2*time.Second {
		t.Fatalf("the call returned after %v; want about 200ms", took)
	}
	// and the server knew the deadline, and saw the call end
	select {
	case h := <-e.ended:
		if d := h.deadline.Sub(start); d <= 0 || d > time.Second { // slack for a stall, not the default timeout
			t.Fatalf("the server's deadline was %v after the call began; want about 200ms", d)
		}
		if d := h.ended.Sub(start); d > 2*time.Second {
			t.Fatalf("the server's call ended %v after it began", d)
		}
	case <-time.After(patience):
		t.Fatal("the server's call never ended")
	}
	waitFor(t, "the timeout counts as a failure", func() bool { // see the HTTP test's twin
		snap, err := r.reg.Snapshot(context.Background(), addr+methodSay)
		return err == nil && snap.Failures == 1
	})
}

func TestTheCallersDeadlineAndCancellationAreRespected(t *testing.T) {
	// Given a server that holds every call, behind the default CallTimeout
	e, addr := newServer(t)
	e.hang.Store(true)
	r := newRig(t, addr, tripwiregrpc.WithSettings(tripwire.Settings{Threshold: 1}))

	// When a call's own context ends in 100ms
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := r.say(ctx, "hi")
	// Then it fails then, with DeadlineExceeded
	if status.Code(err) != codes.DeadlineExceeded || time.Since(start) > 2*time.Second {
		t.Fatalf("call with a 100ms deadline: %v after %v", err, time.Since(start))
	}
	<-e.ended
	_ = r.reg.Reset(context.Background(), addr+methodSay)

	// When a caller cancels its call in flight
	ctx, cancel = context.WithCancel(context.Background())
	go func() {
		eventually(func() bool { return e.calls.Load() == 2 }) // the call reaches the server
		cancel()
	}()
	_, err = r.say(ctx, "hi")
	// Then it fails with Canceled, and counts neither way
	if !errors.Is(err, context.Canceled) || status.Code(err) != codes.Canceled {
		t.Fatalf("cancelled call: %v (code %v)", err, status.Code(err))
	}
	<-e.ended
	if snap, _ := r.reg.Snapshot(context.Background(), addr+methodSay); snap.State != state.Closed || snap.Failures != 0 {
		t.Fatalf("Snapshot %+v; want closed, no failure", snap)
	}
}

func TestTheReplyAndTheCallOptionsReachTheCaller(t *testing.T) {
	_, addr := newServer(t)
	r := newRig(t, addr)
	var header, trailer metadata.MD
	var p peer.Peer
	got, err := r.say(context.Background(), "hi", grpc.Header(&header), grpc.Trailer(&trailer), grpc.Peer(&p))
	if err != nil || got != "echo: hi" {
		t.Fatalf("Say: %q, %v", got, err)
	}
	if header.Get("echo-header")[0] != "h" || trailer.Get("echo-trailer")[0] != "t" || p.Addr == nil || p.Addr.String() != addr {
		t.Fatalf("header %v, trailer %v, peer %v; want the server's", header, trailer, p.Addr)
	}
}

func TestEachMethodHasItsBreakerAndTargetKeySharesOne(t *testing.T) {
	_, addr := newServer(t)
	for _, tc := range []struct {
		opts []tripwiregrpc.Option
		want []string
	}{
		{nil, []string{addr + methodCode, addr + methodSay}},
		{[]tripwiregrpc.Option{tripwiregrpc.WithKey(tripwiregrpc.TargetKey)}, []string{addr}},
	} {
		r := newRig(t, addr, tc.opts...)
		if _, err := r.say(context.Background(), "hi"); err != nil {
			t.Fatal(err)
		}
		if err := r.cc.Invoke(context.Background(), methodCode, wrapperspb.String("0"), new(wrapperspb.StringValue)); err != nil {
			t.Fatal(err)
		}
		if keys := r.reg.Keys(); len(keys) != len(tc.want) || keys[0] != tc.want[0] {
			t.Fatalf("Keys %v; want %v", keys, tc.want)
		}
	}
}
