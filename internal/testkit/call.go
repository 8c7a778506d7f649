package testkit

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire"
)

// Result is what one call returned, and when.
type Result struct {
	V   any
	Err error
	At  time.Time
}

// Go runs fn on its own goroutine; its result arrives on the channel.
func Go(fn func() (any, error)) <-chan Result {
	ch := make(chan Result, 1)
	go func() {
		v, err := fn()
		ch <- Result{V: v, Err: err, At: time.Now()}
	}()
	return ch
}

// GoCall runs reg.Call on its own goroutine.
func GoCall(ctx context.Context, reg *tripwire.Registry, key string, msg any) <-chan Result {
	return Go(func() (any, error) { return reg.Call(ctx, key, msg) })
}

// GoCallAfter is GoCall that waits for start to be closed, so that many
// callers call at the same moment.
func GoCallAfter(ctx context.Context, start <-chan struct{}, reg *tripwire.Registry, key string, msg any) <-chan Result {
	return Go(func() (any, error) {
		<-start
		return reg.Call(ctx, key, msg)
	})
}

// Await returns the result behind ch; an hour of fake time without one fails.
func Await(t *testing.T, ch <-chan Result) Result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(time.Hour):
		t.Fatalf("no result within an hour of fake time")
		return Result{}
	}
}

// StillPending fails if the call behind ch has returned, once every goroutine
// of the bubble is blocked.
func StillPending(t *testing.T, ch <-chan Result, what string) {
	t.Helper()
	synctest.Wait()
	select {
	case r := <-ch:
		t.Fatalf("%s returned early: %v, %v", what, r.V, r.Err)
	default:
	}
}

// Drain returns what is on ch, once every goroutine of the bubble is blocked
// (so nothing more is on its way).
func Drain[T any](ch <-chan T) []T {
	synctest.Wait()
	var got []T
	for {
		select {
		case v := <-ch:
			got = append(got, v)
		default:
			return got
		}
	}
}
