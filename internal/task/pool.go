package task

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/errs"
)

// Func is a function target.
type Func func(ctx context.Context, msg any) (any, error)

// Job is one call for a function target. The worker reports through Out,
// so a Job embedded in a longer-lived value costs no allocation per call.
type Job struct {
	// Run, if set, is all the job is: the worker runs it and reports
	// nothing (see Pool.Go). The fields below are then unused.
	Run func()
	// Ctx is given to the target. If it has no deadline, or a later one than
	// Deadline, the worker adds Deadline to it.
	Ctx      context.Context
	Deadline time.Time
	Fn       Func
	Msg      any
	Classify Classifier
	ReplyTo  Inbox // where &Out is posted
	Call     Call  // the call it runs, which Out carries back
	Out      Completion
	// ByCaller: its caller admitted the call without its breaker (see
	// Call.Admitted); visible to Pool.Running while its target runs.
	ByCaller bool

	// start is whether its target started, which its worker and whoever
	// ends the call at its deadline race for (Unstarted).
	start atomic.Uint32
}

// A job's start (Job.start).
const (
	jobQueued  uint32 = iota // submitted; its target has not started
	jobStarted               // its worker runs, or ran, the target
	jobDropped               // its deadline passed first: the target never runs
)

// begin reports whether the worker may run j's target now: nobody dropped
// it, and its deadline has not passed by the pool's clock (See) — the time
// its callers last read, never ahead of the real one, so a call still
// within its deadline always runs. It reads no clock: a call whose worker
// waited for a core while later calls came (the processes whose workers
// wait) is dropped; one alone in a quiet process is not, and whoever ends
// it at its deadline drops it if the worker has not started it (Unstarted).
func (p *Pool) begin(j *Job) bool {
	if !j.Deadline.IsZero() && int64(j.Deadline.Sub(p.born)) <= p.seen.Load() {
		j.start.CompareAndSwap(jobQueued, jobDropped)
	}
	return j.start.CompareAndSwap(jobQueued, jobStarted)
}

// seeStep is how far the pool's clock must move before a caller writes it:
// it lags the callers' readings by that much at most.
const seeStep = 50 * time.Microsecond

// See tells the pool the time, a reading its caller made just before it
// submits a job (time.Now's, with its monotonic reading). The latest is
// the pool's clock, which its workers compare deadlines with instead of
// reading the clock themselves (a read was 5 % of a function call's CPU).
func (p *Pool) See(now time.Time) {
	if d := int64(now.Sub(p.born)); d > p.seen.Load()+int64(seeStep) {
		p.seen.Store(d) // (a racing store may set it back by a step: it stays behind now)
	}
}

// Unstarted reports, once j's deadline has passed, whether its target
// never started, and makes sure it never will. Such a timeout says nothing
// of the target (its worker got no core in time) and counts neither way.
func (j *Job) Unstarted() bool {
	j.start.CompareAndSwap(jobQueued, jobDropped)
	return j.start.Load() == jobDropped
}

// Inbox takes a job's Completion: a breaker's mailbox, into which the worker
// posts it directly (a protoactor Mailbox is one).
type Inbox interface {
	PostUserMessage(msg any)
}

// idleTimeout is how long, at least, an idle worker waits before it exits,
// at the third tick of the pool's reaper (every idleTimeout/2): 10 to 15 s
// after, reading no clock to go idle.
const idleTimeout = 10 * time.Second

// idleTicks is how many reaper ticks a worker stays idle for.
const idleTicks = 3

// Pool runs Jobs on long-lived goroutines, growing when every worker is busy
// (a hung target delays no other call) and shrinking as workers idle out;
// Submit never blocks. An idle worker waits on a channel of its own, on its
// processor's lock-free stack (idleStack): a job goes to the warmest with a
// compare-and-swap and a send. One timer retires the workers idle for
// idleTimeout.
type Pool struct {
	replies *Router
	closed  atomic.Bool
	live    atomic.Int64
	wg      sync.WaitGroup
	once    sync.Once

	idle     idleStack
	spawning sync.Mutex    // a new worker is counted in wg only while the pool is open
	reap     *time.Timer   // retires idle workers; armed while any is idle
	of       *poolRef      // what reap's func holds of the pool
	armed    atomic.Bool   // reap is armed, by whoever set it
	ticks    atomic.Uint32 // the reaper's ticks so far

	// born and seen are the pool's clock (See): the latest reading its
	// callers told it of, as a duration since born, on a line of its own
	// (every worker reads it; callers write it once a seeStep at most).
	born time.Time
	_    [64]byte
	seen atomic.Int64
	_    [56]byte
}

// poolRef is the pool as its reaper's func holds it, cleared by Close (the
// runtime keeps a stopped timer's func until it was due).
type poolRef struct{ p atomic.Pointer[Pool] }

// worker is one of the pool's goroutines, as the idle stack holds it.
type worker struct {
	jobs  chan *Job     // its next job, or nil: retire (room for one: no sender waits)
	since uint32        // the reaper's tick when it went idle, written before it is pushed
	slot  uint32        // its place in the idle stack's slots, for its life
	next  atomic.Uint32 // the slot+1 of the worker below it on the idle stack

	// cur is the job ByCaller whose target it runs (held while Running
	// looks at it: neither it ends nor its call is reused meanwhile).
	cur atomic.Pointer[Job]
}

// held stands in a worker's cur while Running looks at its job.
var held = new(Job)

// NewPool returns a pool, with the Router in sys for the asks of the same
// registry. Workers post each outcome to its job's ReplyTo.
func NewPool(sys *actor.ActorSystem) *Pool {
	p := &Pool{replies: NewRouter(sys), born: time.Now()}
	p.idle.init()
	p.of = new(poolRef)
	p.of.p.Store(p)
	of := p.of
	p.reap = time.AfterFunc(time.Duration(1<<62), func() { // armed when a worker idles
		if p := of.p.Load(); p != nil {
			p.retire()
		}
	})
	return p
}

// Replies is the Router the registry's asks of actor targets reply through.
func (p *Pool) Replies() *Router { return p.replies }

// Live is the number of worker goroutines, busy or idle.
func (p *Pool) Live() int { return int(p.live.Load()) }

// ErrInvalidJob is Submit's answer to a job it cannot run: nil, or without
// Run and without a Ctx, a Fn, a ReplyTo or a Call.
var ErrInvalidJob = errors.New("tripwire/task: invalid job: nil, or no Ctx, Fn, ReplyTo or Call")

// Submit hands j to an idle worker or a new one (an invalid job is
// ErrInvalidJob); after Close it is answered with ErrShutdown, ignored.
func (p *Pool) Submit(j *Job) error {
	if j == nil || (j.Run == nil && (j.Ctx == nil || j.Fn == nil || j.ReplyTo == nil || j.Call == nil)) {
		return ErrInvalidJob
	}
	if p.closed.Load() || !p.dispatch(j) {
		j.Call.Release()
		j.Out = Completion{Call: j.Call, Err: errs.ErrShutdown, Ignored: true} // neither a success nor a failure
		j.post()
	}
	return nil
}

// Go runs fn on a worker and reports nothing (a panic in fn is recovered);
// it reports false, without running fn, after Close, or for a nil fn.
func (p *Pool) Go(fn func()) bool {
	if fn == nil || p.closed.Load() {
		return false
	}
	return p.dispatch(&Job{Run: fn})
}

// dispatch hands j to a worker; false, not running it, if the pool closed
// while it had to start one, so that none runs after Close has returned.
func (p *Pool) dispatch(j *Job) bool {
	if w := p.idle.pop(); w != nil {
		w.jobs <- j
		return true
	}
	p.spawning.Lock()
	if p.closed.Load() {
		p.spawning.Unlock()
		return false
	}
	p.wg.Add(1)
	p.spawning.Unlock()
	w := &worker{jobs: make(chan *Job, 1)}
	p.idle.join(w)
	p.live.Add(1)
	go p.work(w, j)
	return true
}

// Running calls fn with the job ByCaller of every worker running its
// target, which the worker cannot end meanwhile (a job another Running
// holds is skipped); fn must not block or call into the pool.
func (p *Pool) Running(fn func(*Job)) {
	p.idle.each(func(w *worker) {
		if j := w.cur.Load(); j != nil && j != held && w.cur.CompareAndSwap(j, held) {
			fn(j)
			w.cur.Store(j)
		}
	})
}

// Close stops idle workers and waits for busy ones until ctx is done (a
// target ignoring its context: ctx.Err()); a nil ctx is ErrNilContext.
func (p *Pool) Close(ctx context.Context) error {
	if ctx == nil {
		return errs.ErrNilContext
	}
	p.once.Do(func() {
		p.spawning.Lock()
		p.closed.Store(true)
		p.spawning.Unlock()
		p.reap.Stop()
		p.of.p.Store(nil)
		p.retireAll()
		p.replies.Close()
	})
	done := make(chan struct{})
	go func() { p.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// work runs j, then every job it is handed, until it is retired.
func (p *Pool) work(w *worker, j *Job) {
	defer p.wg.Done()
	defer p.live.Add(-1)
	defer p.idle.leave(w)
	for j != nil {
		p.run(w, j)
		if !p.park(w) {
			return
		}
		j = <-w.jobs
	}
}

// retireAll ends every idle worker; the pool is closed.
func (p *Pool) retireAll() {
	for _, w := range p.idle.takeAll() {
		w.jobs <- nil
	}
}

// park puts w on the idle stack; false: the pool is closed, and w retires.
func (p *Pool) park(w *worker) bool {
	if p.closed.Load() {
		return false
	}
	w.since = p.ticks.Load()
	p.idle.push(w)
	if p.closed.Load() {
		p.retireAll() // Close took the idle workers before this one came
	}
	if !p.armed.Load() && p.armed.CompareAndSwap(false, true) {
		p.arm()
	}
	return true
}

// arm sets the reaper to tick in idleTimeout/2, unless the pool has closed
// (a worker or tick that found it open may get here after Close).
func (p *Pool) arm() {
	p.reap.Reset(idleTimeout / 2)
	if p.closed.Load() {
		p.reap.Stop()
	}
}

// retire is the reaper's tick: it ends the workers idle for idleTicks ticks
// and ticks again while any is idle, taking the whole stack for a moment
// (a job submitted meanwhile starts a worker).
func (p *Pool) retire() {
	if p.closed.Load() {
		return
	}
	tick := p.ticks.Add(1)
	var keep []*worker
	for _, w := range p.idle.takeAll() {
		if tick-w.since < idleTicks {
			keep = append(keep, w)
		} else {
			w.jobs <- nil
		}
	}
	for i := len(keep) - 1; i >= 0; i-- {
		p.idle.push(keep[i])
	}
	if p.closed.Load() {
		p.retireAll() // Close took the stacks while this tick held the workers
		return
	}
	if len(keep) > 0 {
		p.arm()
		return
	}
	// Nothing idle was kept: disarmed, unless a worker idled meanwhile
	// (it saw the timer armed and left it to this).
	p.armed.Store(false)
	if !p.idle.empty() && p.armed.CompareAndSwap(false, true) {
		p.arm()
	}
}

// run runs j on w.
func (p *Pool) run(w *worker, j *Job) {
	if j.Run != nil {
		runRecovered(j.Run)
		return
	}
	if j.ByCaller {
		w.cur.Store(j)
		if !j.Call.Admitted() {
			w.end(j)
			j.Call.Redirect() // the last touch of j
			return
		}
	}
	if !p.begin(j) {
		// Its deadline came first: whoever ends the call there answers it
		// (see Unstarted), and the target never saw it.
		if j.ByCaller {
			w.end(j)
		}
		j.Call.Release()
		return
	}
	ctx := j.Ctx
	if d, ok := ctx.Deadline(); !j.Deadline.IsZero() && (!ok || d.After(j.Deadline)) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, j.Deadline)
		defer cancel()
	}
	v, err := call(ctx, j.Fn, j.Msg)
	if j.ByCaller {
		w.end(j) // before the report: Running never sees a job reported
	}
	j.Call.Release() // before the answer: its caller may call again at once
	j.Out = Completion{Call: j.Call, Value: v, Err: err}
	j.Classify.classify(&j.Out)
	if j.ByCaller && j.Call.Finish(&j.Out) {
		return
	}
	j.post()
}

// end clears cur, waiting for Running if it is looking at j.
func (w *worker) end(j *Job) {
	for !w.cur.CompareAndSwap(j, nil) {
		runtime.Gosched()
	}
}

// runRecovered runs fn, a Go func, which reports nothing: its panic is
// dropped, not the process.
func runRecovered(fn func()) {
	defer func() { _ = recover() }()
	fn()
}

// call runs the target and turns a panic into ErrTargetPanic.
func call(ctx context.Context, fn Func, msg any) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("%w: %v", errs.ErrTargetPanic, r)
		}
	}()
	return fn(ctx, msg)
}

// post posts j's outcome to its ReplyTo: the one way a worker answers.
func (j *Job) post() { j.ReplyTo.PostUserMessage(&j.Out) }
