package load

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/test/chaos"
)

// outcome is the class of one call's answer.
type outcome int

const (
	okAnswer   outcome = iota // the target's value
	injected                  // chaos.ErrInjected
	down                      // chaos.ErrDown (a dead function target, or an actor answering while it stops)
	open                      // tripwire.ErrOpen
	timeout                   // tripwire.ErrTimeout, or the target's own context.DeadlineExceeded
	panicked                  // tripwire.ErrTargetPanic
	targetDown                // tripwire.ErrTargetDown (a stopped actor target)
	restarted                 // tripwire.ErrBreakerRestarted
	canceled                  // context.Canceled: the caller withdrew
	shutdown                  // tripwire.ErrShutdown: never expected while callers run
	other                     // anything else: a bug
	nOutcomes
)

var outcomeNames = [nOutcomes]string{"ok", "injected", "down", "open", "timeout", "panic", "target_down", "restarted", "canceled", "shutdown", "other"}

func (o outcome) String() string { return outcomeNames[o] }

func classify(err error) outcome {
	switch {
	case err == nil:
		return okAnswer
	case errors.Is(err, chaos.ErrInjected):
		return injected
	case errors.Is(err, chaos.ErrDown):
		return down
	case errors.Is(err, tripwire.ErrOpen):
		return open
	case errors.Is(err, context.DeadlineExceeded): // ErrTimeout matches it too
		return timeout
	case errors.Is(err, tripwire.ErrTargetPanic):
		return panicked
	case errors.Is(err, tripwire.ErrTargetDown):
		return targetDown
	case errors.Is(err, tripwire.ErrBreakerRestarted):
		return restarted
	case errors.Is(err, context.Canceled):
		return canceled
	case errors.Is(err, tripwire.ErrShutdown):
		return shutdown
	}
	return other
}

// counts is a tally of answers by outcome.
type counts [nOutcomes]int64

func (c *counts) add(o counts) {
	for i := range c {
		c[i] += o[i]
	}
}

func (c counts) sum() int64 {
	var n int64
	for _, v := range c {
		n += v
	}
	return n
}

func (c counts) String() string {
	var b strings.Builder
	for i, v := range c {
		if v != 0 {
			fmt.Fprintf(&b, " %s=%d", outcome(i), v)
		}
	}
	return strings.TrimSpace(b.String())
}

// callerTally is what one caller (goroutine or asker actor) saw; callers
// tally on their own and are summed at the end, apart from the per-key tally.
type callerTally struct {
	started   int64 // calls made (Call entered, or Request accepted)
	answers   counts
	crossed   int64         // an ok answer carrying another call's id, or another key
	lates     []lateAnswer  // answers later than the call's deadline + lateSlack
	lateLost  int64         // late answers beyond maxLates, not kept
	maxOver   time.Duration // the latest answer, past its deadline
	refused   int64         // Request returned an error: no Reply comes
	dups      int64         // a second Reply for one id, or a Reply for an unknown id
	missing   int64         // calls without an answer at the end
	unexpects []string
}

func (c *callerTally) merge(o callerTally) {
	c.started += o.started
	c.answers.add(o.answers)
	c.crossed += o.crossed
	c.lates = append(c.lates, o.lates...)
	c.lateLost += o.lateLost
	c.maxOver = max(c.maxOver, o.maxOver)
	c.refused += o.refused
	c.dups += o.dups
	c.missing += o.missing
	if len(c.unexpects) < 10 {
		c.unexpects = append(c.unexpects, o.unexpects...)
	}
}

// lateSlack is how far past its deadline an answer may come (the design's
// epsilon for CI; Tripwire's own backstop is deadline + ReplyGrace, 20 ms),
// on top of the time the process was not run at all while the caller waited
// (see stalls): no library answers a goroutine that is not run.
const lateSlack = 50 * time.Millisecond

// maxLates bounds the late answers one caller keeps.
const maxLates = 1000

// answered records one answer: its class, whether it is on time, and
// whether an ok answer is the call's own.
func (c *callerTally) answered(perKey *[nOutcomes]atomic.Int64, err error, begin, end time.Time, budget time.Duration, own bool) {
	wall := end.Sub(begin)
	o := classify(err)
	perKey[o].Add(1)
	c.answers[o]++
	if o == okAnswer && !own {
		c.crossed++
	}
	if o == other || o == shutdown {
		if len(c.unexpects) < 10 {
			c.unexpects = append(c.unexpects, err.Error())
		}
	}
	if over := wall - budget; over > 0 {
		c.maxOver = max(c.maxOver, over)
		if over > lateSlack {
			if len(c.lates) < maxLates {
				c.lates = append(c.lates, lateAnswer{outcome: o, deadline: begin.Add(budget), end: end})
			} else {
				c.lateLost++
			}
		}
	}
}

// maxGauge is a running maximum.
type maxGauge struct{ v atomic.Int64 }

func (g *maxGauge) observe(n int64) {
	for {
		cur := g.v.Load()
		if n <= cur || g.v.CompareAndSwap(cur, n) {
			return
		}
	}
}

func (g *maxGauge) load() int64 { return g.v.Load() }
