package tripwiregrpc_test

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// A method past the registry's WithMaxKeys, with no key to forget, is
// refused with tripwire.ErrTooManyKeys, unsent, with the status a gRPC
// caller expects of a limit it ran into: ResourceExhausted.
func TestAMethodPastMaxKeysIsRefusedUnsentAsResourceExhausted(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a registry full of a key of the program's own, never forgotten
		testkit.Register(t, e.Reg, "own", tripwire.Func(func(context.Context, any) (any, error) { return nil, nil }), tripwire.Settings{})
		inv := okInvoker()
		intercept := fakeInterceptor(t, e)

		// When a call goes to a key of its own
		err := intercept(context.Background(), "/m", wrapperspb.String("hi"), new(wrapperspb.StringValue), nil, inv.Invoke)

		// Then it is refused, unsent
		if !errors.Is(err, tripwire.ErrTooManyKeys) || status.Code(err) != codes.ResourceExhausted {
			t.Fatalf("%v (code %v); want ErrTooManyKeys, ResourceExhausted", err, status.Code(err))
		}
		if n := inv.Calls.Load(); n != 0 {
			t.Fatalf("%d calls sent; want none", n)
		}
	}, tripwire.WithMaxKeys(1))
}
