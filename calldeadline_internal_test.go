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
}
