package tripwire

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestAContextDeadlineWithoutAMonotonicReadingIsTakenFromNow(t *testing.T) {
	// Given a context whose deadline, a second away, has no monotonic
	// reading (as t.UTC() and time.Unix make it)
	now := time.Now()
	wall := now.Add(time.Second).UTC()
	ctx, cancel := context.WithDeadline(context.Background(), wall)
	defer cancel()

	// When a call's deadline is worked out
	d := callDeadline(ctx, now.Add(time.Minute), now)

	// Then it is a second from now on the monotonic clock
	if !strings.Contains(d.String(), "m=") || d.Sub(now) != wall.Sub(now) || !d.Equal(wall) {
		t.Fatalf("deadline %v, want %v with now's monotonic reading", d, wall)
	}
	// and CallTimeout's, when it is the earlier, is kept
	if want := now.Add(time.Millisecond); callDeadline(ctx, want, now) != want {
		t.Fatal("CallTimeout's deadline was not kept")
	}
	// and so is a deadline with a monotonic reading, to the nanosecond
	mono := now.Add(time.Second)
	ctx, cancel = context.WithDeadline(context.Background(), mono)
	defer cancel()
	if d := callDeadline(ctx, now.Add(time.Minute), now); d != mono {
		t.Fatalf("deadline %v, want %v as it was", d, mono)
	}
}
