package task

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	rbqueue "github.com/Workiva/go-datastructures/queue"
	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/borrowed"
	"github.com/tripwire-go/tripwire/internal/errs"
)

// Sender sends the asks of one breaker to its actor target without ever
// blocking the breaker's turn: inline when the target's process cannot block
// its sender, through a line of its own when it might — a protoactor actor
// with a Bounded mailbox blocks its senders while the mailbox is full, and a
// process or mailbox of a kind protoactor does not ship may block too. The
// verdict is kept for the target's process and made again when the process
// changes (the target was respawned). A Sender belongs to one breaker
// incarnation, and may be used on its turns and by its key's callers at once.
//
// A target that has no process (it stopped, or its address is unknown) is
// sent nothing: its ask fails with ErrTargetDown at once, as protoactor's
// dead-letter answer would have made it, but without publishing a
// DeadLetterEvent, whose EventStream handlers (the program's) would run on
// the goroutine of the send, with no deadline.
type Sender struct {
	v    atomic.Pointer[verdict]
	line line
}

// verdict is whether sending to proc may block; ring is a Bounded
// mailbox's queue, full while its Len is its Cap, if proc has one.
type verdict struct {
	proc   actor.Process
	blocks bool
	ring   *rbqueue.RingBuffer
}

// send hands msg to target with a's sender PID.
func (s *Sender) send(p *Pool, a *Ask, target *actor.PID, msg any) {
	proc, ok := a.sys.ProcessRegistry.Get(target)
	if !ok {
		a.fail(errs.ErrTargetDown) // as protoactor's dead-letter answer is
		return
	}
	v := s.v.Load()
	if v == nil || v.proc != proc {
		v = &verdict{proc: proc}
		v.blocks, v.ring = borrowed.MayBlock(proc)
		s.v.Store(v)
	}
	if !v.blocks {
		a.deliver(proc, target, msg)
		return
	}
	s.line.add(p, delivery{a: a, self: a.self, v: v, target: target, env: a.envelope(msg)})
}

// line is a Sender's asks to a target that may block, delivered in order
// by one pool worker at a time. An ask whose caller has its answer (the
// ask was abandoned at its deadline) before its turn is never sent: a
// target that stopped draining its mailbox holds one worker, which waits
// for room without spinning, and only while some ask still waits.
type line struct {
	mu    sync.Mutex
	queue []delivery
	busy  bool // a worker is delivering the queue
}

// delivery is one ask in a line, as it was when it was sent: the ask may
// be abandoned and started again as another before its turn.
type delivery struct {
	a      *Ask
	self   *actor.PID // the ask's sender then, which names its RequestId
	v      *verdict
	target *actor.PID
	env    *actor.MessageEnvelope
}

// add puts d in the line, and starts a worker on it if none is.
func (l *line) add(p *Pool, d delivery) {
	l.mu.Lock()
	l.queue = append(l.queue, d)
	if l.busy {
		l.mu.Unlock()
		return
	}
	l.busy = true
	l.mu.Unlock()
	if !p.Go(l.run) {
		l.shut()
	}
}

// run delivers the line until it is empty.
func (l *line) run() {
	for {
		d, ok := l.next()
		if !ok {
			return
		}
		if d.room() {
			d.deliver()
		}
	}
}

// next takes the line's first delivery; false when it is empty, and the
// worker is done with it.
func (l *line) next() (delivery, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.queue) == 0 {
		l.busy = false
		l.queue = nil // let a burst's array go
		return delivery{}, false
	}
	d := l.queue[0]
	l.queue[0] = delivery{}
	l.queue = l.queue[1:]
	return d, true
}

// shut fails every ask in the line with ErrShutdown: the pool has closed.
func (l *line) shut() {
	for {
		d, ok := l.next()
		if !ok {
			return
		}
		d.fail(errs.ErrShutdown)
	}
}

// Waiting for room in a full Bounded mailbox: yields first (a busy target
// makes room within microseconds), then sleeps, longer each time.
const (
	roomYields   = 64
	roomSleepMin = 50 * time.Microsecond
	roomSleepMax = 5 * time.Millisecond
)

// room waits until the target's mailbox has room for d, and reports
// whether d is still to be sent: false once its ask no longer waits.
func (d *delivery) room() bool {
	sleep := roomSleepMin
	for i := 0; d.waiting(); i++ {
		if d.v.ring == nil || d.v.ring.Len() < d.v.ring.Cap() {
			return true
		}
		if i < roomYields {
			runtime.Gosched()
			continue
		}
		time.Sleep(sleep)
		sleep = min(2*sleep, roomSleepMax)
	}
	return false
}

// waiting reports whether d's ask still waits for its reply, as the ask
// d was made for (not one it was started again as).
func (d *delivery) waiting() bool {
	return d.a.router.waiting(d.self)
}

// deliver sends d's envelope to its target.
func (d *delivery) deliver() {
	defer func() {
		if r := recover(); r != nil { // see Ask.deliver
			d.fail(fmt.Errorf("%w: send failed: %v", errs.ErrTargetDown, r))
		}
	}()
	d.v.proc.SendUserMessage(d.target, d.env)
}

// fail fails d's ask with err, if it is still the ask d was made for.
func (d *delivery) fail(err error) {
	if d.waiting() {
		d.a.fail(err)
	}
}
