package actor

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
)

func TestIdleTimersPostEachCheckWhenDueInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var timers IdleTimers
		r := &recorder{}
		m := newTestMailbox(r)
		timers.arm(3*time.Second, m, &idleCheck{seq: 3})
		timers.arm(time.Second, m, &idleCheck{seq: 1})
		timers.arm(2*time.Second, m, &idleCheck{seq: 2})
		require.Equal(t, 3, timers.Len())

		time.Sleep(time.Second + time.Millisecond)
		synctest.Wait()
		require.Equal(t, []any{&idleCheck{seq: 1}}, r.messages())
		time.Sleep(2 * time.Second)
		synctest.Wait()
		require.Equal(t, []any{&idleCheck{seq: 1}, &idleCheck{seq: 2}, &idleCheck{seq: 3}}, r.messages())
		require.Zero(t, timers.Len())
		timers.Stop()
	})
}

func TestIdleTimersDropACheckWhoseTicketWasCleared(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given two drain checks, one of a key that went away meanwhile
		var timers IdleTimers
		r := &recorder{}
		m := newTestMailbox(r)
		gone, kept := new(ticket), new(ticket)
		gone.mb.Store(m)
		kept.mb.Store(m)
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
