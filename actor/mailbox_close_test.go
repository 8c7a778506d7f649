package actor

import (
	"context"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
)

// newPendingCall returns a call nobody has answered.
func newPendingCall() *Call {
	now := time.Now()
	return NewCall(context.Background(), "m", now.Add(time.Minute), now)
}

// took returns what the next signal of c brought, or fails if none came.
func took(t *testing.T, c *Call) Got {
	t.Helper()
	select {
	case <-c.Signal():
		got, _, _ := c.Take()
		return got
	default:
		t.Fatal("the call got no signal")
		return Answer
	}
}

func TestClosedMailboxBouncesTheCallsItHadQueued(t *testing.T) {
	// Given a suspended mailbox (a crash being handled) with two calls and
	// another message queued
	r := &recorder{}
	m := newTestMailbox(r)
	m.PostSystemMessage(&actor.SuspendMailbox{})
	c1, c2 := newPendingCall(), newPendingCall()
	m.PostUserMessage(c1)
	m.PostUserMessage("other")
	m.PostUserMessage(c2)
	// When its actor stops for good and the mailbox closes
	m.close()
	// Then each call is bounced back to its caller exactly once, unanswered,
	// and nothing was processed
	for _, c := range []*Call{c1, c2} {
		require.Equal(t, Bounced, took(t, c))
		require.Empty(t, c.Signal())
		require.True(t, c.Settle(Result{Value: "still answerable"}))
	}
	require.Equal(t, 0, m.UserMessageCount())
	require.Empty(t, r.messages())
}

func TestClosedMailboxBouncesCallsPostedLaterAndDropsTheRest(t *testing.T) {
	// Given a closed mailbox
	r := &recorder{}
	m := newTestMailbox(r)
	m.close()
	// When a call and another message are posted to it
	c := newPendingCall()
	m.PostUserMessage(c)
	m.PostUserMessage("late outcome")
	// Then the call is bounced at once, the other message dropped, and
	// nothing processed or queued
	require.Equal(t, Bounced, took(t, c))
	require.Empty(t, r.messages())
	require.Equal(t, 0, m.UserMessageCount())
}

func TestCallSignalsEveryKindOnceInOrderOfTaking(t *testing.T) {
	// Given a call that is bounced and then answered by its backstop
	c := newPendingCall()
	c.bounce()
	require.True(t, c.Expire(context.DeadlineExceeded))
	// Then two receives bring the bounce, then the answer, and no more
	require.Equal(t, Bounced, took(t, c))
	require.Equal(t, Answer, took(t, c))
	require.Empty(t, c.Signal())
	// and a later answer is refused
	require.False(t, c.Settle(Result{}))
	require.ErrorIs(t, c.ctx.Err(), context.DeadlineExceeded)
}
