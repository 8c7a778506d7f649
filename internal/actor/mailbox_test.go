package actor

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
)

// recorder is a MessageInvoker that records what the mailbox hands it and on
// which goroutine-independent order.
type recorder struct {
	mu       sync.Mutex
	got      []any
	failures []any
	onUser   func(msg any)
}

func (r *recorder) InvokeSystemMessage(msg any) { r.add(msg) }

func (r *recorder) InvokeUserMessage(msg any) {
	r.add(msg)
	if r.onUser != nil {
		r.onUser(msg)
	}
}

func (r *recorder) EscalateFailure(reason, msg any) {
	r.mu.Lock()
	r.failures = append(r.failures, reason)
	r.mu.Unlock()
}

func (r *recorder) add(msg any) {
	r.mu.Lock()
	r.got = append(r.got, msg)
	r.mu.Unlock()
}

func (r *recorder) messages() []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]any(nil), r.got...)
}

// newTestMailbox returns a mailbox that r takes messages from, live as
// protoactor's spawn makes it (its Started is not recorded).
func newTestMailbox(r *recorder) *Mailbox {
	m := &Mailbox{}
	m.RegisterHandlers(r, nil)
	m.PostSystemMessage(&actor.Started{})
	r.mu.Lock()
	r.got = nil
	r.mu.Unlock()
	return m
}

func TestMailboxRunsAPostOnThePostersGoroutine(t *testing.T) {
	// Given an idle mailbox
	r := &recorder{}
	m := newTestMailbox(r)
	// When a message is posted
	m.PostUserMessage(1)
	// Then it was processed before PostUserMessage returned
	require.Equal(t, []any{1}, r.messages())
	require.False(t, m.running.Load())
}

func TestMailboxHandsAFloodToAGoroutineAfterInlineTurns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a breaker turn that posts more messages to its own mailbox
		// while it runs (a flood arriving during a turn), and a gate that
		// holds whoever processes message number inlineTurns
		r := &recorder{}
		m := newTestMailbox(r)
		gate := make(chan struct{})
		posted := 0
		r.onUser = func(msg any) {
			if posted < 3*inlineTurns {
				posted++
				m.PostUserMessage(posted)
			}
			if msg == inlineTurns {
				<-gate
			}
		}
		// When the first message is posted
		m.PostUserMessage(0)
		// Then the poster returned after inlineTurns turns (had it gone on,
		// it would be stuck at the gate and this line never reached), and
		// another goroutine took over and waits at the gate
		synctest.Wait()
		require.Len(t, r.messages(), inlineTurns+1)
		// When the gate opens, the rest is processed, in order
		close(gate)
		synctest.Wait()
		got := r.messages()
		require.Len(t, got, 3*inlineTurns+1)
		for i, msg := range got {
			require.Equal(t, i, msg)
		}
		require.False(t, m.running.Load())
	})
}

func TestMailboxSystemMessagesFirstAndSuspension(t *testing.T) {
	// Given a mailbox held busy while messages queue up
	r := &recorder{}
	m := newTestMailbox(r)
	m.running.Store(true)
	m.PostUserMessage("user-1")
	m.PostSystemMessage(&actor.SuspendMailbox{})
	m.PostSystemMessage("system-1")
	// When it is processed
	m.process(0)
	// Then system messages came first, and a suspended mailbox held the
	// user message back
	require.Equal(t, []any{"system-1"}, r.messages())
	// When it is resumed
	m.PostSystemMessage(&actor.ResumeMailbox{})
	// Then the user message is processed
	require.Equal(t, []any{"system-1", "user-1"}, r.messages())
	require.Equal(t, 0, m.UserMessageCount())
}

func TestMailboxEscalatesAPanicAndGoesOn(t *testing.T) {
	// Given a turn that panics
	boom := errors.New("boom")
	r := &recorder{onUser: func(msg any) {
		if msg == "bad" {
			panic(boom)
		}
	}}
	m := newTestMailbox(r)
	// When it is posted, then a good message
	m.PostUserMessage("bad")
	m.PostUserMessage("good")
	// Then the panic went to the supervisor and the mailbox goes on
	require.Equal(t, []any{boom}, r.failures)
	require.Equal(t, []any{"bad", "good"}, r.messages())
}

func TestQueueCompactsWhileNeverEmpty(t *testing.T) {
	// Given a queue that is pushed to and popped from without ever emptying
	var q queue
	q.push(-1)
	for i := 0; i < 10000; i++ {
		q.push(i)
		require.Equal(t, i-1, q.pop())
	}
	// Then it keeps its order and does not grow without bound
	require.Equal(t, 1, q.len())
	require.Less(t, cap(q.items), 4096)
}

func TestMailboxTakesEveryPostOnceAndInOrderFromConcurrentPosters(t *testing.T) {
	// Given a mailbox with one turn at a time, checked, and posters on
	// every core racing its turns' ends (where the mailbox lets go of
	// running without its lock)
	synctest.Test(t, func(t *testing.T) {
		const posters, each = 8, 5000
		r := &recorder{}
		m := newTestMailbox(r)
		var inTurn sync.Mutex
		r.onUser = func(any) {
			if !inTurn.TryLock() {
				panic("two turns at once")
			}
			inTurn.Unlock()
		}
		type post struct{ poster, n int }
		var wg sync.WaitGroup
		for p := range posters {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := range each {
					m.PostUserMessage(post{p, n})
				}
			}()
		}
		wg.Wait()
		synctest.Wait() // the last turns, handed to a goroutine

		// Then each post was taken once, each poster's in its order, and the
		// mailbox is idle
		next := make([]int, posters)
		for _, msg := range r.messages() {
			p := msg.(post)
			require.Equal(t, next[p.poster], p.n, "poster %d", p.poster)
			next[p.poster]++
		}
		for p := range posters {
			require.Equal(t, each, next[p], "poster %d", p)
		}
		require.Empty(t, r.failures)
		require.False(t, m.running.Load())
		require.Zero(t, m.queued.Load())
	})
}

func TestMailboxNeverTakesAPostBeforeTheStartedOfItsBreaker(t *testing.T) {
	const posters = 3
	for round := range 20000 {
		// Given a breaker's mailbox as protoactor's spawn readies it
		r := &recorder{}
		m := &Mailbox{}
		m.RegisterHandlers(r, nil)

		// When calls are posted, spinning, as its Started is
		var wg sync.WaitGroup
		var ready atomic.Bool
		for range posters {
			wg.Go(func() {
				for !ready.Load() {
					runtime.Gosched()
				}
				m.PostUserMessage(round)
			})
		}
		ready.Store(true)
		m.PostSystemMessage(&actor.Started{})
		wg.Wait()
		for m.running.Load() {
			runtime.Gosched()
		}

		// Then the breaker takes its Started first
		got := r.messages()
		require.Len(t, got, posters+1, "round %d", round)
		require.IsType(t, &actor.Started{}, got[0], "round %d", round)
	}
}
