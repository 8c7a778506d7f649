package tripwiregrpc_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/internal/testkit/grpcfake"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiregrpc"
)

var errNoTenant = errors.New("no tenant in the metadata")

// okInvoker answers every call.
func okInvoker() *grpcfake.Invoker {
	return &grpcfake.Invoker{Fn: func(_ context.Context, req, reply any, _ []grpc.CallOption) error {
		if m, ok := req.(*wrapperspb.StringValue); ok {
			grpcfake.EchoInto(m, reply)
		}
		return nil
	}}
}

func TestUnaryClientInterceptorRefusesBadArguments(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		for name, tc := range map[string]struct {
			reg  *tripwire.Registry
			opts []tripwiregrpc.Option
			want error
		}{
			"nil registry":            {nil, nil, tripwire.ErrInvalidOption},
			"nil option":              {e.Reg, []tripwiregrpc.Option{nil}, tripwire.ErrInvalidOption},
			"WithKey(nil)":            {e.Reg, []tripwiregrpc.Option{tripwiregrpc.WithKey(nil)}, tripwire.ErrInvalidOption},
			"WithSettingsFor(nil)":    {e.Reg, []tripwiregrpc.Option{tripwiregrpc.WithSettingsFor(nil)}, tripwire.ErrInvalidOption},
			"WithClassifier(nil)":     {e.Reg, []tripwiregrpc.Option{tripwiregrpc.WithClassifier(nil)}, tripwire.ErrInvalidOption},
			"settings with Classify":  {e.Reg, []tripwiregrpc.Option{tripwiregrpc.WithSettings(tripwire.Settings{Classify: func(any, error) state.Verdict { return state.Success }})}, tripwire.ErrInvalidSettings},
			"settings with IsFailure": {e.Reg, []tripwiregrpc.Option{tripwiregrpc.WithSettings(tripwire.Settings{IsFailure: func(any, error) bool { return true }})}, tripwire.ErrInvalidSettings},
			"invalid settings":        {e.Reg, []tripwiregrpc.Option{tripwiregrpc.WithSettings(tripwire.Settings{Window: state.Window{Size: 20, MinCalls: 50}})}, tripwire.ErrInvalidSettings},
			"a negative CallTimeout":  {e.Reg, []tripwiregrpc.Option{tripwiregrpc.WithSettings(tripwire.Settings{CallTimeout: -1})}, tripwire.ErrInvalidSettings},
		} {
			if i, err := tripwiregrpc.UnaryClientInterceptor(tc.reg, tc.opts...); i != nil || !errors.Is(err, tc.want) {
				t.Errorf("%s: UnaryClientInterceptor = %v; want %v", name, err, tc.want)
			}
		}
	})
}

func TestBadCallsAreRefusedWithoutBeingSent(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		inv := okInvoker()
		keyed := func(f tripwiregrpc.KeyFunc) grpc.UnaryClientInterceptor {
			i, err := tripwiregrpc.UnaryClientInterceptor(e.Reg, tripwiregrpc.WithKey(f))
			if err != nil {
				t.Fatal(err)
			}
			return i
		}
		byMethod, err := tripwiregrpc.UnaryClientInterceptor(e.Reg)
		if err != nil {
			t.Fatal(err)
		}
		fixed := keyed(fixedKey)
		var nilCtx context.Context
		var nilReply *struct{}
		for name, tc := range map[string]struct {
			call func() error
			want []error
		}{
			"nil context":     {func() error { return fixed(nilCtx, "/m", "r", new(string), nil, inv.Invoke) }, []error{tripwiregrpc.ErrInvalidCall}},
			"nil invoker":     {func() error { return fixed(context.Background(), "/m", "r", new(string), nil, nil) }, []error{tripwiregrpc.ErrInvalidCall}},
			"nil reply":       {func() error { return fixed(context.Background(), "/m", "r", nil, nil, inv.Invoke) }, []error{tripwiregrpc.ErrInvalidCall}},
			"typed nil reply": {func() error { return fixed(context.Background(), "/m", "r", nilReply, nil, inv.Invoke) }, []error{tripwiregrpc.ErrInvalidCall}},
			"nil message": {func() error {
				return fixed(context.Background(), "/m", "r", (*wrapperspb.StringValue)(nil), nil, inv.Invoke)
			}, []error{tripwiregrpc.ErrInvalidCall}},
			"non-pointer":     {func() error { return fixed(context.Background(), "/m", "r", "reply", nil, inv.Invoke) }, []error{tripwiregrpc.ErrInvalidCall}},
			"no connection":   {func() error { return byMethod(context.Background(), "/m", "r", new(string), nil, inv.Invoke) }, []error{tripwiregrpc.ErrKey}},
			"key func error":  {func() error { return keyed(noTenant)(context.Background(), "/m", "r", new(string), nil, inv.Invoke) }, []error{tripwiregrpc.ErrKey, errNoTenant}},
			"key func panics": {func() error { return keyed(panics)(context.Background(), "/m", "r", new(string), nil, inv.Invoke) }, []error{tripwiregrpc.ErrKey}},
			"empty key": {func() error {
				return keyed(constKey(""))(context.Background(), "/m", "r", new(string), nil, inv.Invoke)
			}, []error{tripwiregrpc.ErrKey, tripwire.ErrInvalidKey}},
			"too long a key": {func() error {
				return keyed(constKey(strings.Repeat("k", 257)))(context.Background(), "/m", "r", new(string), nil, inv.Invoke)
			}, []error{tripwiregrpc.ErrKey, tripwire.ErrInvalidKey}},
			"context canceled": {func() error { return fixed(canceled(), "/m", "r", new(string), nil, inv.Invoke) }, []error{context.Canceled}},
		} {
			err := tc.call()
			for _, want := range tc.want {
				if !errors.Is(err, want) {
					t.Errorf("%s: %v; want it to match %v", name, err, want)
				}
			}
			wantCode := codes.Internal
			if name == "context canceled" {
				wantCode = codes.Canceled
			}
			if c := status.Code(err); c != wantCode {
				t.Errorf("%s: status code %v; want %v", name, c, wantCode)
			}
		}
		if n := inv.Calls.Load(); n != 0 {
			t.Fatalf("%d bad calls were sent", n)
		}
		if keys := e.Reg.Keys(); len(keys) != 0 {
			t.Fatalf("bad calls made keys %v", keys)
		}
	})
}

func noTenant(context.Context, *grpc.ClientConn, string) (string, error) { return "", errNoTenant }

func panics(context.Context, *grpc.ClientConn, string) (string, error) { panic("key func bug") }

func constKey(k string) tripwiregrpc.KeyFunc {
	return func(context.Context, *grpc.ClientConn, string) (string, error) { return k, nil }
}

func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

func TestSettingsErrorsFailTheCallAndAreAskedAgain(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		inv := okInvoker()
		denied := status.Error(codes.PermissionDenied, "no breaker for you")
		var asked atomic.Int64
		for name, tc := range map[string]struct {
			settings func(string) (tripwire.Settings, error)
			want     error
			code     codes.Code
		}{
			"error":             {func(string) (tripwire.Settings, error) { return tripwire.Settings{}, errNoTenant }, errNoTenant, codes.Internal},
			"error with status": {func(string) (tripwire.Settings, error) { return tripwire.Settings{}, denied }, denied, codes.PermissionDenied},
			"invalid":           {func(string) (tripwire.Settings, error) { return tripwire.Settings{OpenTimeout: -1}, nil }, tripwire.ErrInvalidSettings, codes.Internal},
			"classify": {func(string) (tripwire.Settings, error) {
				return tripwire.Settings{IsFailure: func(any, error) bool { return true }}, nil
			}, tripwire.ErrInvalidSettings, codes.Internal},
		} {
			counted := func(k string) (tripwire.Settings, error) { asked.Add(1); return tc.settings(k) }
			intercept := fakeInterceptor(t, e, tripwiregrpc.WithSettingsFor(counted))
			for range 2 {
				err := intercept(context.Background(), "/m", wrapperspb.String("hi"), new(wrapperspb.StringValue), nil, inv.Invoke)
				if !errors.Is(err, tc.want) || !errors.Is(err, tripwire.ErrFactory) || status.Code(err) != tc.code {
					t.Errorf("%s: %v (code %v); want %v and ErrFactory, %v", name, err, status.Code(err), tc.want, tc.code)
				}
			}
		}
		if n := asked.Load(); n != 8 {
			t.Fatalf("settings asked %d times; want 8: each failed call asks again", n)
		}
		if n := inv.Calls.Load(); n != 0 {
			t.Fatalf("%d calls sent", n)
		}
	})
}

func TestAKeyOfTheProgramsOwnIsNotUsed(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		own := tripwire.Func(func(context.Context, any) (any, error) { return "mine", nil })
		testkit.Register(t, e.Reg, fakeKey, own, tripwire.Settings{})
		inv := okInvoker()
		err := fakeInterceptor(t, e)(context.Background(), "/m", wrapperspb.String("hi"), new(wrapperspb.StringValue), nil, inv.Invoke)
		if !errors.Is(err, tripwire.ErrUnexpectedReply) || inv.Calls.Load() != 0 {
			t.Fatalf("call: %v, %d sent; want ErrUnexpectedReply, none sent", err, inv.Calls.Load())
		}
	})
}

// Regression: a key of the program's own whose target answered with its
// message (an echo, a pass-through) handed back the package's call unsent,
// and the caller got a success with an empty reply.
func TestAKeyOfTheProgramsOwnThatEchoesIsNotASuccess(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		echo := tripwire.Func(func(_ context.Context, m any) (any, error) { return m, nil })
		testkit.Register(t, e.Reg, fakeKey, echo, tripwire.Settings{})
		inv := okInvoker()
		reply := wrapperspb.String("caller's")
		err := fakeInterceptor(t, e)(context.Background(), "/m", wrapperspb.String("hi"), reply, nil, inv.Invoke)
		if !errors.Is(err, tripwire.ErrUnexpectedReply) || inv.Calls.Load() != 0 || reply.GetValue() != "caller's" {
			t.Fatalf("call: %v, %d sent, reply %q; want ErrUnexpectedReply, none sent, the reply untouched", err, inv.Calls.Load(), reply.GetValue())
		}
	})
}
