package actor

import (
	"sync"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/task"
)

// inlineTurns is how many messages a sender processes on its own goroutine
// before the rest of the breaker's mailbox moves to a goroutine of its own.
const inlineTurns = 64

// Mailbox is the mailbox of one key's breaker: the key's, outliving
// crash-restarts, respawns and passivation. Callers, workers and the
// registry post to it directly, never through protoactor's process
// registry, so nothing meant for a key ends in dead letters. While a breaker
// runs, its turns (a microsecond, never blocking) run on the goroutine of
// whoever posts to the idle mailbox, moving to one of their own after
// inlineTurns; system messages go first, and a suspended mailbox (a crash
// being handled) processes nothing else. Between a breaker's stop and the
// supervisor's verdict, and while the key sleeps, messages wait (the first
// wakes a passivated key); once the key is gone (Discard) they are refused.
type Mailbox struct {
	mu      sync.Mutex
	running atomic.Bool
	// open mirrors phase == live && !suspended and queued counts both
	// queues' messages (written under mu): posting to an idle, empty, live
	// mailbox and ending a run of turns need no lock.
	open      atomic.Bool
	queued    atomic.Int32
	suspended bool    // guarded by mu
	phase     phase   // guarded by mu
	q         *queues // guarded by mu; nil while the key is asleep or gone, so such a key keeps little
	why       *error  // guarded by mu: the reason of a discarded mailbox (a pointer: 8 bytes a key, not 16)
	owner     *Config // the key whose mailbox this is, woken by a post while asleep
}

// queues are what a mailbox needs only while the key has a breaker or
// messages waiting for one.
type queues struct {
	user, system queue
	invoker      actor.MessageInvoker
	// direct is the running breaker, which takes calls and outcomes without
	// protoactor's context layers (no middleware, no receive timeout to
	// serve); set in its Started turn, read in turns.
	direct *breaker
}

// queues returns the mailbox's queues, making them if it has none; mu held.
func (m *Mailbox) queues() *queues {
	if m.q == nil {
		m.q = &queues{}
	}
	return m.q
}

// phase is what a mailbox does with what is posted to it.
type phase uint8

const (
	held      phase = iota // no breaker takes messages now: they wait
	live                   // a breaker takes them
	asleep                 // passivated: they wait, and the first wakes the key
	discarded              // the key is gone: they are refused
)

var _ actor.Mailbox = (*Mailbox)(nil)

// PostUserMessage hands msg to the key's breaker, as a protoactor Send to
// the breaker's PID would, without the process registry lookup.
func (m *Mailbox) PostUserMessage(msg any) {
	if m.open.Load() && m.queued.Load() == 0 && m.running.CompareAndSwap(false, true) {
		// Idle and empty: take its turn now. Holding running, only a turn
		// can close the mailbox: look again.
		if m.open.Load() && m.queued.Load() == 0 {
			m.invoke(msg, fromUser)
			m.process(inlineTurns - 1)
			return
		}
		m.running.Store(false)
		if m.queued.Load() > 0 {
			m.schedule()
		}
	}
	m.mu.Lock()
	if m.phase != live {
		m.postNotLive(msg)
		return
	}
	q := m.q // a live mailbox has its queues
	if !m.suspended && q.user.len() == 0 && q.system.len() == 0 && m.running.CompareAndSwap(false, true) {
		// Idle and empty: take this message's turn now, without queueing it.
		m.mu.Unlock()
		m.invoke(msg, fromUser)
		m.process(inlineTurns - 1)
		return
	}
	m.push(&q.user, msg)
	m.mu.Unlock()
	m.schedule()
}

// postNotLive is PostUserMessage to a mailbox no breaker takes messages
// from now; it is called with mu held, and unlocks it.
func (m *Mailbox) postNotLive(msg any) {
	if _, own := msg.(timer); own {
		m.mu.Unlock()
		return // meant for a breaker that has stopped
	}
	switch m.phase {
	case discarded:
		why := *m.why
		m.mu.Unlock()
		refuse(msg, why)
		return
	case asleep:
		if lateOutcome(msg) {
			m.mu.Unlock()
			return // the key sleeps on: its breaker would only drop it
		}
		m.push(&m.queues().user, msg)
		m.setPhase(held) // the first post wakes the key; the rest wait
		m.mu.Unlock()
		m.owner.Shared.Wake(m.owner)
		return
	}
	m.push(&m.queues().user, msg) // held
	m.mu.Unlock()
}

// push queues msg in q, one of m's queues; mu held.
func (m *Mailbox) push(q *queue, msg any) {
	q.push(msg)
	m.queued.Add(1)
}

// pop takes the next message of q, one of m's queues; mu held.
func (m *Mailbox) pop(q *queue) any {
	m.queued.Add(-1)
	return q.pop()
}

// setPhase and setSuspended's lock-held half keep open in step; mu held.
func (m *Mailbox) setPhase(p phase) {
	m.phase = p
	m.open.Store(m.phase == live && !m.suspended)
}

// PostSystemMessage queues a system message of the running breaker; a
// breaker's Started makes the mailbox live. Without one the rest is dropped.
func (m *Mailbox) PostSystemMessage(msg any) {
	m.mu.Lock()
	_, start := msg.(*actor.Started)
	start = start && m.phase != discarded
	if !start && m.phase != live {
		m.mu.Unlock()
		return
	}
	m.push(&m.queues().system, msg)
	if start {
		// Live once its Started is counted: a post that finds it open
		// without the lock finds it not empty, and queues behind it.
		m.setPhase(live)
	}
	m.mu.Unlock()
	m.schedule()
}

// RegisterHandlers is protoactor giving the mailbox to a breaker it spawns,
// just before it posts the breaker's Started.
func (m *Mailbox) RegisterHandlers(invoker actor.MessageInvoker, _ actor.Dispatcher) {
	m.mu.Lock()
	m.queues().invoker, m.suspended = invoker, false
	m.setPhase(m.phase)
	m.mu.Unlock()
}

func (m *Mailbox) Start() {}

func (m *Mailbox) UserMessageCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.q == nil {
		return 0
	}
	return m.q.user.len()
}

// stopped is the breaker's last turn: what is posted now waits for the
// next breaker, Passivate or Discard; the mailbox lets go of the actor.
func (m *Mailbox) stopped() {
	m.mu.Lock()
	m.setPhase(held)
	if q := m.q; q != nil {
		m.queued.Add(-int32(q.system.len()))
		q.invoker, q.direct, q.system = nil, nil, queue{}
	}
	m.mu.Unlock()
}

// Passivate puts the mailbox of an idle breaker that stopped to sleep (the
// next post calls Shared.Wake); false if a message came meanwhile.
func (m *Mailbox) Passivate() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.phase != held || (m.q != nil && m.q.user.len() > 0) {
		return false
	}
	m.setPhase(asleep)
	m.q = nil
	m.queued.Store(0) // it had no user message, and stopped() dropped the system ones
	return true
}

// Discard ends the mailbox of a key that has no breaker any more: every
// message still queued, and every one posted later, is refused with why.
func (m *Mailbox) Discard(why error) {
	m.mu.Lock()
	m.setPhase(discarded)
	m.why = &why
	var left []any
	if q := m.q; q != nil {
		for q.user.len() > 0 {
			left = append(left, m.pop(&q.user))
		}
	}
	m.q = nil
	m.queued.Store(0)
	m.mu.Unlock()
	for _, msg := range left {
		refuse(msg, why)
	}
}

// refusable is a request of the registry that a breaker answers, and that
// a discarded mailbox answers instead with the reason.
type refusable interface {
	refuse(why error)
}

// refuse answers what is posted to a discarded mailbox: a call or request
// with why, an orphan's outcome with its target's answer; the rest is dropped.
func refuse(msg any, why error) {
	switch m := msg.(type) {
	case *Call:
		m.Settle(Result{Err: why})
	case *task.Completion:
		if c, ok := m.Call.(*Call); ok {
			c.Settle(Result{Value: m.Value, Err: m.Err, Target: true})
		}
	case refusable:
		m.refuse(why)
	}
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
// messages unless suspended, nothing while no breaker runs. With nothing to
// process it releases running under the posters' lock, so a message
// queued after it looked finds the mailbox idle, and its poster takes it.
func (m *Mailbox) next() (msg any, system, ok bool) {
	if m.queued.Load() == 0 {
		// Nothing queued: release running without the lock. A poster
		// counts its message before it tries running: it takes running, or
		// this sees its message and takes running back.
		m.running.Store(false)
		if m.queued.Load() == 0 || !m.running.CompareAndSwap(false, true) {
			return nil, false, false
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if q := m.q; m.phase == live {
		if q.system.len() > 0 {
			msg := m.pop(&q.system)
			if q.system.len() == 0 {
				// Rare (Started, Stop): no array kept between two.
				q.system.items = nil
			}
			return msg, fromSystem, true
		}
		if !m.suspended && q.user.len() > 0 {
			return m.pop(&q.user), fromUser, true
		}
	}
	m.running.Store(false)
	return nil, false, false
}

// Which queue a message came from (invoke).
const (
	fromUser   = false
	fromSystem = true
)

// invoke runs msg's turn (a live mailbox's queues stay until it stops).
func (m *Mailbox) invoke(msg any, system bool) {
	q := m.q
	defer func() {
		if r := recover(); r != nil {
			// protoactor's own contract: the failure goes to the supervisor,
			// which suspends this mailbox until it has decided.
			q.invoker.EscalateFailure(r, msg)
		}
	}()
	if !system {
		if b := q.direct; b == nil || !b.receiveDirect(msg) {
			q.invoker.InvokeUserMessage(msg)
		}
		return
	}
	switch msg.(type) {
	case *actor.SuspendMailbox, *actor.ResumeMailbox:
		_, suspend := msg.(*actor.SuspendMailbox)
		m.setSuspended(suspend)
	default:
		q.invoker.InvokeSystemMessage(msg)
	}
}

// setDirect makes b take the call path's turns; b's Started turn calls it.
func (m *Mailbox) setDirect(b *breaker) { m.q.direct = b }

// setSuspended suspends the mailbox (a crash is being decided) or resumes it.
func (m *Mailbox) setSuspended(s bool) {
	m.mu.Lock()
	m.suspended = s
	m.setPhase(m.phase)
	m.mu.Unlock()
	if m.owner == nil {
		return
	}
	if s {
		m.owner.Cell.admitting(nil, nil)
	} else if b := m.q.direct; b != nil {
		b.publishAdmits()
	}
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

// lateOutcome reports whether msg is the outcome of a call answered
// already: a target that ignored its context, after its key passivated
// (with no call in flight: its breaker would drop it).
func lateOutcome(msg any) bool {
	o, ok := msg.(*task.Completion)
	if !ok {
		return false
	}
	c, ok := o.Call.(*Call)
	return ok && c.status.Load()&stateBits != pending
}
