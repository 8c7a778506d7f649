package task

import (
	"context"
	"fmt"
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
	Token    any
	Out      Completion
}

// Inbox takes a job's Completion: a breaker's mailbox, into which the worker
// posts it directly (a protoactor Mailbox is one).
type Inbox interface {
	PostUserMessage(msg any)
}

// idleTimeout is how long a worker waits for another job before it exits.
const idleTimeout = 10 * time.Second

// Pool runs Jobs on long-lived goroutines. It grows when every worker is busy
// (a hung target never delays another call) and shrinks as workers idle out.
// Submit never blocks.
type Pool struct {
	replies *Router
	jobs    chan *Job
	quit    chan struct{}
	closed  atomic.Bool
	live    atomic.Int64
	wg      sync.WaitGroup
	once    sync.Once
}

// NewPool returns a pool, with the Router in sys for the asks of the same
// registry. Workers post each outcome to its job's ReplyTo.
func NewPool(sys *actor.ActorSystem) *Pool {
	return &Pool{replies: NewRouter(sys), jobs: make(chan *Job), quit: make(chan struct{})}
}

// Replies is the Router the registry's asks of actor targets reply through.
func (p *Pool) Replies() *Router { return p.replies }

// Live is the number of worker goroutines, busy or idle.
func (p *Pool) Live() int { return int(p.live.Load()) }

// Submit hands j to an idle worker or starts a new one. After Close the job
// is answered with ErrShutdown without running.
func (p *Pool) Submit(j *Job) {
	if p.closed.Load() {
		release(j.Token)
		p.report(j, Completion{Token: j.Token, Err: errs.ErrShutdown})
		return
	}
	p.dispatch(j)
}

// Go runs fn on a worker and reports nothing; it reports false, without
// running fn, after Close.
func (p *Pool) Go(fn func()) bool {
	if p.closed.Load() {
		return false
	}
	p.dispatch(&Job{Run: fn})
	return true
}

func (p *Pool) dispatch(j *Job) {
	select {
	case p.jobs <- j:
	default:
		p.live.Add(1)
		p.wg.Add(1)
		go p.work(j)
	}
}

// Close stops idle workers and waits, until ctx is done, for busy ones. A
// target that ignores its context can keep its worker busy; Close then
// returns ctx.Err().
func (p *Pool) Close(ctx context.Context) error {
	p.once.Do(func() {
		p.closed.Store(true)
		close(p.quit)
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

// work runs j, then every job it is handed, until it has had none for
// idleTimeout. Its idle timer is armed once and, when it fires, re-armed
// for what is left of the timeout since the last job: a Reset per job put
// a timer update on every call.
func (p *Pool) work(j *Job) {
	defer p.wg.Done()
	defer p.live.Add(-1)
	idle := time.NewTimer(idleTimeout)
	defer idle.Stop()
	for j != nil {
		p.run(j)
		j = p.next(idle, time.Now())
	}
}

// next waits for a worker's next job, given its idle timer and when its
// last job ended; nil: the worker is done (closed, or idle too long).
func (p *Pool) next(idle *time.Timer, done time.Time) *Job {
	for {
		select {
		case j := <-p.jobs:
			return j
		case <-p.quit:
			return nil
		case <-idle.C:
			left := idleTimeout - time.Since(done)
			if left <= 0 {
				return nil
			}
			idle.Reset(left)
		}
	}
}

func (p *Pool) run(j *Job) {
	if j.Run != nil {
		j.Run()
		return
	}
	ctx := j.Ctx
	if d, ok := ctx.Deadline(); !ok || d.After(j.Deadline) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, j.Deadline)
		defer cancel()
	}
	v, err := call(ctx, j.Fn, j.Msg)
	release(j.Token) // before the answer: its caller may call again at once
	o := Completion{Token: j.Token, Value: v, Err: err}
	j.Classify.classify(&o)
	p.report(j, o)
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

func (p *Pool) report(j *Job, o Completion) {
	j.Out = o
	j.ReplyTo.PostUserMessage(&j.Out)
}
