package actor

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/task"
)

// newPendingCall returns a call nobody has answered.
func newPendingCall() *Call {
	now := time.Now()
	return newCall(context.Background(), "m", now.Add(time.Minute), now)
}

// answerOf returns the answer c got, or fails if it has none.
func answerOf(t *testing.T, c *Call) Result {
	t.Helper()
	select {
	case <-c.signal:
		ask, res := c.take()
		require.Nil(t, ask)
		return res
	default:
		t.Fatal("the call got no answer")
		return Result{}
	}
}

var errGone = errors.New("key gone")

func TestStoppedMailboxKeepsWhatComesForTheNextBreaker(t *testing.T) {
	// Given a mailbox whose breaker has stopped (crashed too often, say)
	r := &recorder{}
	m := newTestMailbox(r)
	m.stopped()
	// When calls and a system message are posted meanwhile
	c1, c2 := newPendingCall(), newPendingCall()
	m.PostUserMessage(c1)
	m.PostSystemMessage(&actor.Terminated{})
	m.PostUserMessage(c2)
	// Then nothing is processed and the calls wait, unanswered
	require.Empty(t, r.messages())
	require.Equal(t, 2, m.UserMessageCount())
	require.Empty(t, c1.signal)
	// When the next breaker gets the mailbox
	next := &recorder{}
	m.RegisterHandlers(next, nil)
	m.PostSystemMessage(&actor.Started{})
	// Then it gets its Started, then the calls in order; the stale system
	// message was meant for the breaker that stopped, and is gone
	require.Equal(t, []any{&actor.Started{}, c1, c2}, next.messages())
}

func TestStoppedMailboxIsNotSuspendedForTheNextBreaker(t *testing.T) {
	// Given a breaker that was stopped while its mailbox was suspended (a
	// crash over the restart limit: protoactor stops it instead of resuming)
	r := &recorder{}
	m := newTestMailbox(r)
	m.PostSystemMessage(&actor.SuspendMailbox{})
	m.stopped()
	c := newPendingCall()
	m.PostUserMessage(c)
	// When the next breaker gets it
	next := &recorder{}
	m.RegisterHandlers(next, nil)
	m.PostSystemMessage(&actor.Started{})
	// Then it takes the call
	require.Equal(t, []any{&actor.Started{}, c}, next.messages())
}

func TestDiscardedMailboxAnswersEveryCallAndRequestWithTheReason(t *testing.T) {
	// Given a stopped mailbox holding a call, a request and another message
	r := &recorder{}
	m := newTestMailbox(r)
	m.stopped()
	c := newPendingCall()
	reply := make(chan Report, 1)
	m.PostUserMessage(c)
	m.PostUserMessage(&SnapshotRequest{Reply: reply})
	m.PostUserMessage("other")
	// When the key turns out to be gone
	m.Discard(errGone)
	// Then the call and the request are answered with the reason
	require.ErrorIs(t, answerOf(t, c).Err, errGone)
	require.ErrorIs(t, (<-reply).Err, errGone)
	// and so is a call posted later; nothing is processed or kept
	late := newPendingCall()
	m.PostUserMessage(late)
	require.ErrorIs(t, answerOf(t, late).Err, errGone)
	require.Equal(t, 0, m.UserMessageCount())
	require.Empty(t, r.messages())
}

func TestDiscardedMailboxGivesAnOrphansOutcomeToItsCaller(t *testing.T) {
	// Given a discarded mailbox and a call a crash left in flight
	m := newTestMailbox(&recorder{})
	m.Discard(errGone)
	c := newPendingCall()
	// When its target's outcome arrives
	m.PostUserMessage(&task.Completion{Call: c, Value: "v"})
	// Then its caller gets it; a late outcome of an answered call changes nothing
	require.Equal(t, Result{Value: "v", Target: true}, answerOf(t, c))
	m.PostUserMessage(&task.Completion{Call: c, Value: "again"})
	require.Empty(t, c.signal)
}

func TestPassivatedMailboxWakesTheKeyOnceWithItsFirstMessage(t *testing.T) {
	// Given a breaker that stopped for being idle, nothing posted since
	m := newTestMailbox(&recorder{})
	wakes := 0
	m.owner = &Config{Shared: &Shared{Wake: func(c *Config) {
		require.Same(t, m.owner, c)
		wakes++
	}}}
	m.stopped()
	require.True(t, m.Passivate())
	// When two calls come
	c1, c2 := newPendingCall(), newPendingCall()
	m.PostUserMessage(c1)
	m.PostUserMessage(c2)
	// Then the key is woken once, and both wait for its breaker
	require.Equal(t, 1, wakes)
	require.Equal(t, 2, m.UserMessageCount())
	next := &recorder{}
	m.RegisterHandlers(next, nil)
	m.PostSystemMessage(&actor.Started{})
	require.Equal(t, []any{&actor.Started{}, c1, c2}, next.messages())
}

func TestPassivateFailsIfAMessageCameWhileTheBreakerStopped(t *testing.T) {
	// Given a breaker that stopped for being idle, and a call that came
	// while it stopped
	m := newTestMailbox(&recorder{})
	m.owner = &Config{Shared: &Shared{Wake: func(*Config) { t.Fatal("woken") }}}
	m.stopped()
	m.PostUserMessage(newPendingCall())
	// Then the key is not idle: passivation fails, and nothing is woken
	require.False(t, m.Passivate())
}

func TestCallSignalsACourierThenTheAnswer(t *testing.T) {
	// Given a call whose ask was delivered to its caller, then expired by
	// its backstop
	c := newPendingCall()
	c.Deliver(&task.Ask{})
	require.True(t, c.expire(context.DeadlineExceeded, anyRound))
	// Then two receives bring the courier, then the answer, and no more
	<-c.signal
	courier, _ := c.take()
	require.NotNil(t, courier)
	require.ErrorIs(t, answerOf(t, c).Err, context.DeadlineExceeded)
	require.Empty(t, c.signal)
	// and a later answer is refused
	require.False(t, c.Settle(Result{}))
	require.ErrorIs(t, c.ctx.Err(), context.DeadlineExceeded)
}

func TestNextBreakerTakesNothingBeforeItsStarted(t *testing.T) {
	// Given a stopped mailbox that protoactor is giving to a fresh breaker:
	// its handlers are registered, its Started not posted yet
	m := newTestMailbox(&recorder{})
	m.stopped()
	next := &recorder{}
	m.RegisterHandlers(next, nil)
	// When a call is posted in between (the soak's crash storm did this:
	// the breaker got a call before its Started and crashed on it)
	c := newPendingCall()
	m.PostUserMessage(c)
	// Then it waits, and comes after the Started
	require.Empty(t, next.messages())
	m.PostSystemMessage(&actor.Started{})
	require.Equal(t, []any{&actor.Started{}, c}, next.messages())
}
