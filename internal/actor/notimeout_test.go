package actor

import (
	"context"
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/errs"
)

// Regression: a call with no timeout (a deadline math.MaxInt64 away) that
// its breaker admitted stopped the deadline ticks of every call: another
// call was not answered at its deadline.
func TestACallWithNoTimeoutLeavesTheOthersDeadlines(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a breaker whose timers have run a while, and a call with no timeout
		require.Equal(t, "ok", r.call("ok").Value)
		time.Sleep(callTimeout + time.Second)
		forever := make(later)
		defer close(forever)
		now := time.Now()
		c0 := newCall(context.Background(), forever, now.Add(math.MaxInt64), now)
		r.sys.Root.Send(r.pid, c0)

		// When another call's target hangs past its deadline
		gate := make(later)
		defer close(gate)
		c := r.send(gate)
		time.Sleep(callTimeout + time.Second)
		synctest.Wait()

		// Then it was answered at its deadline
		require.False(t, unanswered(c), "a call a second past its deadline is still unanswered")
		require.ErrorIs(t, answer(c).Err, errs.ErrTimeout)
	})
}
