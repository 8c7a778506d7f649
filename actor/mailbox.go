package actor

import (
	"sync"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
)

// inlineTurns is how many messages a sender processes on its own goroutine
// before the rest of the breaker's mailbox moves to a goroutine of its own.
const inlineTurns = 64

// Mailbox is a breaker's mailbox. Like protoactor's synchronized dispatcher
// it runs the breaker's turns on the goroutine of whoever posts to an idle
// mailbox — a turn never blocks and takes about a microsecond, so that is
// cheaper than starting a goroutine (and growing its stack) per activation —
// but it bounds that work: after inlineTurns messages the rest is processed
// on a new goroutine, so a caller on a hot key never drains everyone else's
// calls past its own deadline. System messages go first; a suspended
// mailbox (a crash being handled) processes only system messages.
//
// Callers post to it directly (PostUserMessage), not through protoactor's process
// registry, so a call can never end in dead letters: once its breaker has
// stopped for good the mailbox is closed, and every call still queued or
// posted later is bounced back to its caller (Call.Take reports it), who
// follows the key to its next breaker. A caller therefore waits on its own
// call's channel alone.
type Mailbox struct {
	mu        sync.Mutex
	user      queue
	system    queue
	running   atomic.Bool
	suspended bool // guarded by mu
	closed    bool // guarded by mu
	invoker   actor.MessageInvoker
	// direct is the running incarnation of the breaker, which takes calls
	// and outcomes without protoactor's context layers (which do nothing
	// for a breaker: it has no middleware and no receive timeout). Set in
	// the breaker's Started turn; read in turns.
	direct *breaker
}

// NewMailbox returns the mailbox for one breaker actor: give it to Props,
// and use it for exactly one spawn.
func NewMailbox() *Mailbox { return &Mailbox{} }

var _ actor.Mailbox = (*Mailbox)(nil)

// PostUserMessage hands msg to the breaker; callers use it directly, as a
// protoactor Send to the breaker's PID would, without the process registry
// lookup. A *Call posted after the breaker stopped is bounced; anything else
// is dropped, as protoactor would.
func (m *Mailbox) PostUserMessage(msg any) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		bounce(msg)
		return
	}
	if !m.suspended && m.user.len() == 0 && m.system.len() == 0 && m.running.CompareAndSwap(false, true) {
		// Idle and empty: take this message's turn now, without queueing it.
		m.mu.Unlock()
		m.invoke(msg, false)
		m.process(inlineTurns - 1)
		return
	}
	m.user.push(msg)
	m.mu.Unlock()
	m.schedule()
}

// close ends the mailbox once its actor has stopped: the calls still queued
// are bounced, and so is every call posted from now on.
func (m *Mailbox) close() {
	m.mu.Lock()
	m.closed = true
	var left []any
	for m.user.len() > 0 {
		left = append(left, m.user.pop())
	}
	m.mu.Unlock()
	for _, msg := range left {
		bounce(msg)
	}
}

func bounce(msg any) {
	if c, ok := msg.(*Call); ok {
		c.bounce()
	}
}

func (m *Mailbox) PostSystemMessage(msg any) {
	m.mu.Lock()
	m.system.push(msg)
	m.mu.Unlock()
	m.schedule()
}

func (m *Mailbox) RegisterHandlers(invoker actor.MessageInvoker, _ actor.Dispatcher) {
	m.invoker = invoker
}

func (m *Mailbox) Start() {}

func (m *Mailbox) UserMessageCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.user.len()
}

// schedule processes the mailbox here if nobody is processing it.
func (m *Mailbox) schedule() {
	if m.running.CompareAndSwap(false, true) {
		m.process(inlineTurns)
	}
}

// process runs turns while it holds running; after limit turns (0: no
// limit) it hands the mailbox, still running, to a new goroutine.
func (m *Mailbox) process(limit int) {
	for turns := 0; ; turns++ {
		if limit > 0 && turns == limit {
			go m.process(0)
			return
		}
		msg, system, ok := m.next()
		if !ok {
			return
		}
		m.invoke(msg, system)
	}
}

// next pops the next message to process: system messages first, user
// messages only while not suspended. With nothing to process it releases
// running, under the lock posters queue under, so a message queued after
// it looked finds the mailbox idle and its poster takes it on.
func (m *Mailbox) next() (msg any, system, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.system.len() > 0 {
		return m.system.pop(), true, true
	}
	if !m.suspended && m.user.len() > 0 {
		return m.user.pop(), false, true
	}
	m.running.Store(false)
	return nil, false, false
}

func (m *Mailbox) invoke(msg any, system bool) {
	defer func() {
		if r := recover(); r != nil {
			// protoactor's own contract: the failure goes to the supervisor,
			// which suspends this mailbox until it has decided.
			m.invoker.EscalateFailure(r, msg)
		}
	}()
	if !system {
		if b := m.direct; b == nil || !b.receiveDirect(msg) {
			m.invoker.InvokeUserMessage(msg)
		}
		return
	}
	switch msg.(type) {
	case *actor.SuspendMailbox:
		m.setSuspended(true)
	case *actor.ResumeMailbox:
		m.setSuspended(false)
	default:
		m.invoker.InvokeSystemMessage(msg)
	}
}

func (m *Mailbox) setSuspended(s bool) {
	m.mu.Lock()
	m.suspended = s
	m.mu.Unlock()
}

// queue is a FIFO of messages; the mailbox's mutex guards it.
type queue struct {
	items []any
	head  int
}

func (q *queue) len() int { return len(q.items) - q.head }

func (q *queue) push(x any) { q.items = append(q.items, x) }

func (q *queue) pop() any {
	x := q.items[q.head]
	q.items[q.head] = nil
	q.head++
	switch {
	case q.head == len(q.items):
		q.items, q.head = q.items[:0], 0
	case q.head >= 1024 && q.head*2 >= len(q.items):
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
	return x
}
