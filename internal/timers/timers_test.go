package timers

import (
	"math"
	"testing"
	"testing/synctest"
	"time"
	"weak"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/retain"
)

func TestTimersPostEachCheckWhenDueInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var ts timers
		b := &inbox{}
		ts.Arm(3*time.Second, b, 3)
		ts.Arm(time.Second, b, 1)
		ts.Arm(2*time.Second, b, 2)
		require.Equal(t, 3, ts.Len())

		time.Sleep(time.Second + time.Millisecond)
		synctest.Wait()
		require.Equal(t, []any{1}, b.messages())
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Equal(t, []any{1, 2, 3}, b.messages())
		require.Zero(t, ts.Len())
		ts.Stop()
	})
}

func TestTimersDropACheckWhoseTicketWasVoided(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given two checks, one of a key that went away meanwhile
		var ts timers
		b := &inbox{}
		gone, kept := NewTicket(b), NewTicket(b)
		ts.ArmTicket(time.Second, gone, 1)
		ts.ArmTicket(time.Second, kept, 2)
		gone.Void()

		// Then only the other is posted
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Equal(t, []any{2}, b.messages())
		ts.Stop()
	})
}

func TestTimersPostNothingAfterStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var ts timers
		b := &inbox{}
		ts.Arm(time.Second, b, 1)
		ts.Stop()
		ts.Arm(time.Second, b, 2)
		ts.Rearm(time.Second, NewTicket(b), 3)
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Empty(t, b.messages())
	})
}

func TestRearmMovesATicketInsteadOfAddingOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a ticket armed at 10 s among other checks
		var ts timers
		b := &inbox{}
		tk := NewTicket(b)
		ts.Arm(3*time.Second, b, "check 100")
		ts.Rearm(10*time.Second, tk, "tick 1")
		ts.Arm(4*time.Second, b, "check 101")

		// When it is armed again sooner, twice
		ts.Rearm(5*time.Second, tk, "tick 2")
		ts.Rearm(2*time.Second, tk, "tick 3")

		// Then the heap holds it once, and only its last arming comes, when due
		require.Equal(t, 3, ts.Len())
		time.Sleep(2*time.Second + time.Millisecond)
		synctest.Wait()
		require.Equal(t, []any{"tick 3"}, b.messages())

		// And once it came, arming it again puts it back
		ts.Rearm(time.Second, tk, "tick 4")
		require.Equal(t, 3, ts.Len())
		time.Sleep(20 * time.Second)
		synctest.Wait()
		require.Equal(t, []any{"tick 3", "check 100", "tick 4", "check 101"}, b.messages())
		require.Zero(t, ts.Len())
		ts.Stop()
	})
}

func TestRearmLater(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a ticket armed at 1 s, moved to 3 s before it came
		var ts timers
		b := &inbox{}
		tk := NewTicket(b)
		ts.Rearm(time.Second, tk, 1)
		ts.Rearm(3*time.Second, tk, 2)

		// Then nothing comes at 1 s, and its message at 3 s
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Empty(t, b.messages())
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Equal(t, []any{2}, b.messages())
		ts.Stop()
	})
}

// Regression: a check due in (nearly) math.MaxInt64 wrapped to the past,
// and the timers' one timer, armed 292 years away, was never brought
// forward again: every other check of the registry stopped.
func TestAFarCheckLeavesTheOthersOnTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given timers that have run a while
		var ts timers
		defer ts.Stop()
		b := &inbox{}
		ts.Arm(time.Hour, b, 1)
		time.Sleep(10 * time.Millisecond)

		// When a check is armed for (nearly) forever, and one for a second
		ts.Arm(math.MaxInt64-time.Microsecond, b, 2)
		ts.Arm(time.Second, b, 3)

		// Then the others come on time
		time.Sleep(2 * time.Hour)
		synctest.Wait()
		require.Equal(t, []any{3, 1}, b.messages())
	})
}

// Regression: the runtime keeps a stopped timer, and its func, in its heap
// until the time it was due (or until it sweeps its heap, which it does
// when a quarter of it is stopped timers), and the timer's func held the
// Timers, and so the registry they are part of, for as long as an
// IdleTimeout or a CallTimeout after Shutdown.
func TestStoppedTimersHoldNothingOfTheirOwner(t *testing.T) {
	// Given timers enough that the runtime does not sweep its heap
	retain.HoldTimers(t, 4000)
	// and owners whose timers each armed a check an hour ahead (the
	// runtime keeps some stopped timers and not others: one is not
	// enough to tell)
	type owner struct {
		ts timers
		_  [4096]byte
	}
	const owners = 20
	gone := make([]weak.Pointer[owner], owners)
	b := &inbox{}
	for i := range owners {
		o := new(owner)
		o.ts.Arm(time.Hour, b, i)
		// When they are stopped
		o.ts.Stop()
		gone[i] = weak.Make(o)
	}
	// Then nothing keeps any owner
	require.Zero(t, retain.Kept(gone), "owners of stopped timers still held")
}
