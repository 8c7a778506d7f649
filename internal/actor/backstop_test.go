package actor

import (
	"context"
	"math"
	"runtime"
	"testing"
	"testing/synctest"
	"time"
	"weak"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/task"
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

// use starts a use of c due in d, as a caller does, and watches it.
func use(k *Caller, c *Call, msg string, in time.Duration) {
	now := time.Now()
	c.reset(context.Background(), msg, now.Add(in), now)
	c.begin(k.dueOf(now.Add(in), atGrace))
	k.watch(c, c.due.Load())
}

// armedIn is how far ahead c's backstop is armed.
func armedIn(k *Caller, c *Call) time.Duration {
	return time.Duration(c.bs.armed.Load()) - time.Since(k.born)
}

func TestABackstopLeftArmedArmsItselfForTheNextUseWhenItFires(t *testing.T) {
	inTimerBubble(t, func(t *testing.T, k *Caller) {
		// Given a call's backstop armed for its use due in 1 s, answered at once
		c := newCall(context.Background(), "m", time.Now(), time.Now())
		use(k, c, "first", time.Second)
		require.Equal(t, time.Second+ReplyGrace, armedIn(k, c))
		require.True(t, c.Settle(Result{Value: "ok"}))
		<-c.signal

		// When the call is used again, due in 3 s, without arming again (it
		// would fire too early, not too late)
		time.Sleep(500 * time.Millisecond)
		start := time.Now()
		use(k, c, "second", 3*time.Second)
		require.Equal(t, time.Second-500*time.Millisecond+ReplyGrace, armedIn(k, c), "armed for the first use still")

		// Then, firing for the first use's deadline, it does nothing but
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

func TestABackstopNeverTakesAnEarlierUsesDeadlineForTheUseItSees(t *testing.T) {
	inTimerBubble(t, func(t *testing.T, k *Caller) {
		// Given a call's backstop watching its use due in 1 s
		c := newCall(context.Background(), "m", time.Now(), time.Now())
		use(k, c, "first", time.Second)

		// When the use is answered and the call started again, due in 30
		// s, before its caller looks at the backstop (as when the timer
		// fires at that moment)
		require.True(t, c.Settle(Result{Value: "ok"}))
		<-c.signal
		now := time.Now()
		c.reset(context.Background(), "again", now.Add(30*time.Second), now)
		c.begin(k.dueOf(now.Add(30*time.Second), atGrace))

		// Then the firing at the first deadline leaves the new use alone and
		// arms itself for the new use's own deadline
		time.Sleep(time.Second + ReplyGrace)
		synctest.Wait()
		require.True(t, unanswered(c))
		require.Equal(t, 29*time.Second, armedIn(k, c))
		require.True(t, c.Settle(Result{Value: "its own answer"}))
	})
}

func TestACallDroppedWithItsBackstopArmedIsCollected(t *testing.T) {
	inTimerBubble(t, func(t *testing.T, k *Caller) {
		// Given a call used with no timeout to speak of, answered, its
		// backstop armed (no further than maxArm ahead)
		c := newCall(context.Background(), "m", time.Now(), time.Now())
		use(k, c, "m", math.MaxInt64)
		require.Equal(t, maxArm, armedIn(k, c))
		require.True(t, c.Settle(Result{Value: "ok"}))
		<-c.signal
		bs := weak.Make(c.bs)

		// When nothing refers to the call any more (the pool of calls
		// dropped it)
		dropped := weak.Make(c)
		c = nil
		runtime.GC()
		runtime.GC()

		// Then the call and its backstop are collected, though the timer is
		// armed; it fires within maxArm, for nothing
		require.Nil(t, dropped.Value(), "the armed timer keeps the call")
		require.Nil(t, bs.Value(), "the armed timer keeps the backstop")
		time.Sleep(maxArm)
		synctest.Wait()
	})
}
