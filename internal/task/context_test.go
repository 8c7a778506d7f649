package task

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestACallContextEndsOnceWhicheverOfDoneAndCancelComesFirst(t *testing.T) {
	for i := range 2000 {
		// Given a call's context, asked for its Done channel while it is
		// ended, from two goroutines at once
		x := new(Context)
		x.Start(context.Background(), time.Now().Add(time.Minute))
		want := context.Canceled
		if i%2 == 1 {
			want = context.DeadlineExceeded
		}
		var done <-chan struct{}
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); done = x.Done() }()
		go func() { defer wg.Done(); x.Cancel(want); x.Cancel(context.Canceled) }()
		wg.Wait()

		// Then the channel it gave is closed, and the error is the first one
		select {
		case <-done:
		default:
			t.Fatalf("round %d: Done not closed after cancel", i)
		}
		require.Equal(t, want, x.Err())
		require.Equal(t, done, x.Done(), "Done gives one channel")
	}
}

func TestACallContextIsLiveUntilEnded(t *testing.T) {
	x := new(Context)
	x.Start(context.WithValue(context.Background(), ctxKey{}, "v"), time.Unix(1, 0))
	require.NoError(t, x.Err())
	select {
	case <-x.Done():
		t.Fatal("done before it ended")
	default:
	}
	d, ok := x.Deadline()
	require.True(t, ok)
	require.Equal(t, time.Unix(1, 0), d)
	require.Equal(t, "v", x.Value(ctxKey{}))
	x.Cancel(context.DeadlineExceeded)
	<-x.Done()
	require.ErrorIs(t, x.Err(), context.DeadlineExceeded)
}

type ctxKey struct{}
