package tripwire_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

type lookup struct{ ID string }

func TestFuncRefusesTheWrongMessageBeforeTheTarget(t *testing.T) {
	// Given a typed function target with threshold 1
	reg, _ := start(t)
	var calls atomic.Int64
	target := tripwire.Func(func(_ context.Context, req lookup) (string, error) {
		calls.Add(1)
		return strings.ToUpper(req.ID), nil
	})
	require.NoError(t, reg.Register(context.Background(), "users", target, tripwire.Settings{Threshold: 1}))

	// When it is called with a message of another type
	_, err := reg.Call(context.Background(), "users", "u1")

	// Then the call is refused, the function never runs and the circuit
	// stays closed
	require.ErrorIs(t, err, tripwire.ErrInvalidMessage)
	require.Contains(t, err.Error(), "tripwire_test.lookup")
	require.Zero(t, calls.Load())
	s, err := reg.Snapshot(context.Background(), "users")
	require.NoError(t, err)
	require.Equal(t, state.Closed, s.State)

	// and a message of the right type is answered, typed
	v, err := tripwire.Key[any, string](reg, "users").Call(context.Background(), lookup{ID: "u1"})
	require.NoError(t, err)
	require.Equal(t, "U1", v)
}

func TestFuncNilIsAnInvalidTarget(t *testing.T) {
	reg, _ := start(t)
	err := reg.Register(context.Background(), "users", tripwire.Func[lookup, string](nil), tripwire.Settings{})
	require.ErrorIs(t, err, tripwire.ErrInvalidTarget)
	require.Empty(t, reg.Keys())
}

// A nil pointer of the request type is refused as a message of another
// type is (an untyped nil already was): a function that reads its request
// would panic on it, and count a failure for a caller's mistake.
func TestFuncRefusesANilPointerRequest(t *testing.T) {
	reg, _ := start(t)
	var calls atomic.Int64
	target := tripwire.Func(func(_ context.Context, req *lookup) (string, error) {
		calls.Add(1)
		return req.ID, nil
	})
	require.NoError(t, reg.Register(context.Background(), "users", target, tripwire.Settings{Threshold: 1}))

	_, err := reg.Call(context.Background(), "users", (*lookup)(nil))
	require.ErrorIs(t, err, tripwire.ErrInvalidMessage)
	require.Zero(t, calls.Load())
	s, err := reg.Snapshot(context.Background(), "users")
	require.NoError(t, err)
	require.Equal(t, state.Closed, s.State)

	v, err := tripwire.Key[any, string](reg, "users").Call(context.Background(), &lookup{ID: "u1"})
	require.NoError(t, err)
	require.Equal(t, "u1", v)
}
