package actor

import (
	"testing"
	"testing/synctest"
	"time"
	"weak"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/retain"
)

// len is the number of checks armed.
func (t *IdleTimers) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.due)
}

func TestIdleTimersPostEachCheckWhenDueInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var timers IdleTimers
		r := &recorder{}
		m := newTestMailbox(r)
		timers.arm(3*time.Second, m, &idleCheck{seq: 3})
		timers.arm(time.Second, m, &idleCheck{seq: 1})
		timers.arm(2*time.Second, m, &idleCheck{seq: 2})
		require.Equal(t, 3, timers.len())

		time.Sleep(time.Second + time.Millisecond)
		synctest.Wait()
		require.Equal(t, []any{&idleCheck{seq: 1}}, r.messages())
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Equal(t, []any{&idleCheck{seq: 1}, &idleCheck{seq: 2}, &idleCheck{seq: 3}}, r.messages())
		require.Zero(t, timers.len())
		timers.Stop()
	})
}

func TestIdleTimersDropACheckWhoseTicketWasCleared(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given two drain checks, one of a key that went away meanwhile
		var timers IdleTimers
		r := &recorder{}
		m := newTestMailbox(r)
		gone, kept := ticketOf(m), ticketOf(m)
		timers.armTicket(time.Second, gone, &idleCheck{seq: 1, drain: true})
		timers.armTicket(time.Second, kept, &idleCheck{seq: 2, drain: true})
		gone.mb.Store(nil)

		// Then only the other is posted
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Equal(t, []any{&idleCheck{seq: 2, drain: true}}, r.messages())
		timers.Stop()
	})
}

func TestIdleTimersPostNothingAfterStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var timers IdleTimers
		r := &recorder{}
		m := newTestMailbox(r)
		timers.arm(time.Second, m, &idleCheck{seq: 1})
		timers.Stop()
		timers.arm(time.Second, m, &idleCheck{seq: 2})
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Empty(t, r.messages())
	})
}

func TestIdleTimersRearmMovesATicketInsteadOfAddingOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a ticket armed at 10 s among other checks
		var timers IdleTimers
		r := &recorder{}
		m := newTestMailbox(r)
		tk := ticketOf(m)
		timers.arm(3*time.Second, m, &idleCheck{seq: 100})
		timers.rearm(10*time.Second, tk, &deadlineTick{seq: 1})
		timers.arm(4*time.Second, m, &idleCheck{seq: 101})

		// When it is armed again sooner, twice
		timers.rearm(5*time.Second, tk, &deadlineTick{seq: 2})
		timers.rearm(2*time.Second, tk, &deadlineTick{seq: 3})

		// Then the heap holds it once, and only its last arming comes, when due
		require.Equal(t, 3, timers.len())
		time.Sleep(2*time.Second + time.Millisecond)
		synctest.Wait()
		require.Equal(t, []any{&deadlineTick{seq: 3}}, r.messages())

		// And once it came, arming it again puts it back
		timers.rearm(time.Second, tk, &deadlineTick{seq: 4})
		require.Equal(t, 3, timers.len())
		time.Sleep(20 * time.Second)
		synctest.Wait()
		require.Equal(t, []any{&deadlineTick{seq: 3}, &idleCheck{seq: 100}, &deadlineTick{seq: 4}, &idleCheck{seq: 101}}, r.messages())
		require.Zero(t, timers.len())
		timers.Stop()
	})
}

func TestIdleTimersRearmLater(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a ticket armed at 1 s, moved to 3 s before it came
		var timers IdleTimers
		r := &recorder{}
		m := newTestMailbox(r)
		tk := ticketOf(m)
		timers.rearm(time.Second, tk, &deadlineTick{seq: 1})
		timers.rearm(3*time.Second, tk, &deadlineTick{seq: 2})

		// Then nothing comes at 1 s, and its message at 3 s
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Empty(t, r.messages())
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Equal(t, []any{&deadlineTick{seq: 2}}, r.messages())
		timers.Stop()
	})
}

// ticketOf returns a ticket naming m.
func ticketOf(m *Mailbox) *ticket {
	tk := new(ticket)
	tk.mb.Store(m)
	return tk
}

// Regression: the runtime keeps a stopped timer, and its func, in its heap
// until the time it was due (or until it sweeps its heap, which it does
// when a quarter of it is stopped timers), and the timer's func held the
// IdleTimers, and so the registry's Shared they are part of, for as long
// as an IdleTimeout or a CallTimeout after Shutdown.
func TestStoppedIdleTimersHoldNothingOfTheirOwner(t *testing.T) {
	// Given timers enough that the runtime does not sweep its heap
	retain.HoldTimers(t, 4000)
	// and owners whose timers each armed a check an hour ahead (the
	// runtime keeps some stopped timers and not others: one is not
	// enough to tell)
	type owner struct {
		Idle IdleTimers
		_    [4096]byte
	}
	const owners = 20
	gone := make([]weak.Pointer[owner], owners)
	m := newTestMailbox(&recorder{})
	for i := range owners {
		o := new(owner)
		o.Idle.arm(time.Hour, m, &idleCheck{seq: uint64(i)})
		// When they are stopped
		o.Idle.Stop()
		gone[i] = weak.Make(o)
	}
	// Then nothing keeps any owner
	require.Zero(t, retain.Kept(gone), "owners of stopped timers still held")
}
