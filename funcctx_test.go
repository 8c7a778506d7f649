package tripwire_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
)

// A function target may keep the context it was given (a goroutine it
// started, a request it left running): that context is its call's alone,
// and it ends when the call has its answer.
func TestAFunctionTargetsContextIsItsCallsAndEndsWithIt(t *testing.T) {
	// Given a target that keeps each context it is given, and checks it is
	// live while it runs
	reg, _ := start(t)
	var mu sync.Mutex
	var kept []context.Context
	target := tripwire.Func(func(ctx context.Context, msg any) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		kept = append(kept, ctx)
		return msg, ctx.Err()
	})
	require.NoError(t, reg.Register(context.Background(), "k", target, tripwire.Settings{}))

	// When it is called a hundred times in a row (calls are reused)
	for i := range 100 {
		v, err := reg.Call(context.Background(), "k", i)
		require.NoError(t, err)
		require.Equal(t, i, v)
	}

	// Then every context it kept is a different one, ended, its Done closed
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, kept, 100)
	seen := map[context.Context]bool{}
	for i, ctx := range kept {
		require.False(t, seen[ctx], "call %d got the context of an earlier call", i)
		seen[ctx] = true
		require.ErrorIs(t, ctx.Err(), context.Canceled, "call %d", i)
		select {
		case <-ctx.Done():
		default:
			t.Fatalf("call %d: its context's Done is open after the call", i)
		}
	}
}
