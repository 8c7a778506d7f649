package actor

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/task"
)

// inTimerBubble runs body in fake time with a caller of a registry of its own.
func inTimerBubble(t *testing.T, body func(t *testing.T, k *Caller)) {
	synctest.Test(t, func(t *testing.T) {
		sys := actor.NewActorSystem()
		pool := task.NewPool(sys)
		body(t, NewCaller(pool))
		require.NoError(t, pool.Close(context.Background()))
		sys.Shutdown()
		time.Sleep(time.Hour)
		synctest.Wait()
	})
}

func newCallDue(in time.Duration) *Call {
	now := time.Now()
	return NewCall(context.Background(), "m", now.Add(in), now)
}

func TestABackstopLeftArmedArmsItselfForTheCallItWatchesWhenItFires(t *testing.T) {
	inTimerBubble(t, func(t *testing.T, k *Caller) {
		// Given a backstop armed for a call due in 1 s, answered at once
		bs := k.newBackstop()
		first := newCallDue(time.Second)
		bs.watch(first, first.Deadline, false)
		require.True(t, first.Settle(Result{Value: "ok"}))
		bs.forget()

		// When it watches a call due in 3 s, without arming again (it
		// would fire too early, not too late)
		time.Sleep(500 * time.Millisecond)
		start := time.Now()
		c := newCallDue(3 * time.Second)
		bs.watch(c, c.Deadline, false)
		require.Equal(t, time.Second-500*time.Millisecond+ReplyGrace,
			time.Duration(bs.armed.Load())-time.Since(k.born), "armed for the first call still")

		// Then, firing for the first call's deadline, it does nothing but
		// arm itself again, and answers the second at its own deadline plus
		// ReplyGrace, exactly
		time.Sleep(time.Second)
		synctest.Wait()
		require.True(t, unanswered(c))
		res := answer(c)
		require.ErrorIs(t, res.Err, errs.ErrTimeout)
		require.Equal(t, 3*time.Second+ReplyGrace, time.Since(start))
	})
}

func TestABackstopNeverTouchesACallReusedSinceItLooked(t *testing.T) {
	inTimerBubble(t, func(t *testing.T, k *Caller) {
		// Given a backstop watching a call due in 1 s (round 1)
		bs := k.newBackstop()
		c := newCallDue(time.Second)
		bs.watch(c, c.Deadline, false)

		// When the call is answered and reused for a new request (round 2)
		// before its caller lets go of the backstop, as when the timer
		// fires at that moment
		require.True(t, c.Settle(Result{Value: "ok"}))
		<-c.Signal()
		c.Reuse(context.Background(), "again", time.Now().Add(time.Hour), time.Now())

		// Then the backstop's firing leaves the new request alone
		time.Sleep(time.Second + ReplyGrace + time.Millisecond)
		synctest.Wait()
		require.True(t, unanswered(c))
		require.Zero(t, bs.armed.Load(), "armed for a call that is answered")
		require.True(t, c.Settle(Result{Value: "its own answer"}))
	})
}
