package tripwiregrpc_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/internal/testkit/grpcfake"
)

// An invoker that panics fails its call with tripwire.ErrTargetPanic, the
// panic value in the message and the status Internal, and counts as a
// failure; the process carries on.
func TestAnInvokerThatPanicsFailsTheCallAsInternal(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		inv := &grpcfake.Invoker{Fn: func(context.Context, any, any, []grpc.CallOption) error { panic("invoker bug") }}
		intercept := fakeInterceptor(t, e)

		err := intercept(context.Background(), "/m", wrapperspb.String("hi"), new(wrapperspb.StringValue), nil, inv.Invoke)

		if !errors.Is(err, tripwire.ErrTargetPanic) || status.Code(err) != codes.Internal || !strings.Contains(err.Error(), "invoker bug") {
			t.Fatalf("%v (code %v); want ErrTargetPanic with the panic value, Internal", err, status.Code(err))
		}
		if s := testkit.Snapshot(t, e.Reg, e.Reg.Keys()[0]); s.Failures != 1 {
			t.Fatalf("failures %d; want 1", s.Failures)
		}
	})
}
