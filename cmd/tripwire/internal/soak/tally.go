package soak

import (
	"sync/atomic"
	"time"
)

// callerTally is what one caller (goroutine or asker actor) saw; callers
// tally on their own and are summed at the end. What a run shows while it
// goes (Progress) and the per-key tallies are in live.
type callerTally struct {
	started   int64 // calls made (Call entered, or Request accepted)
	answers   Counts
	crossed   int64         // an ok answer carrying another call's id, or another key
	lates     []LateAnswer  // answers later than the call's deadline + LateSlack
	lateLost  int64         // late answers beyond maxLates, not kept
	maxOver   time.Duration // the latest answer, past its deadline
	maxSent   time.Duration // the latest send of an answer Tripwire sent past its deadline (sendTimes)
	pastDue   int64         // answers that came past their deadline
	sentKnown int64         // of them, those whose send time is known
	refused   int64         // Request returned an error: no Reply comes
	dups      int64         // a second Reply for one id, or a Reply for an unknown id
	missing   int64         // calls without an answer at the end
	unexpects []string
}

// maxUnexpects bounds the unexpected errors a tally keeps.
const maxUnexpects = 10

// live is what every caller adds to as it goes, read while the run goes.
type live struct {
	perKey  []liveCounts  // answers by key and outcome
	started atomic.Int64  // calls made
	lates   atomic.Int64  // answers more than LateSlack past their deadline
	maxOver maxGauge      // the latest answer past its deadline, in ns
	down    []atomic.Bool // by key: its target is dead now (Config.KillTargets)
	sends   *sendTimes    // when Tripwire sent each answer (nil: not known in this build)
}

func newLive(keys int) *live {
	return &live{perKey: make([]liveCounts, keys), down: make([]atomic.Bool, keys), sends: recorder()}
}

func (c *callerTally) merge(o callerTally) {
	c.started += o.started
	c.answers.Add(o.answers)
	c.crossed += o.crossed
	c.lates = append(c.lates, o.lates...)
	c.lateLost += o.lateLost
	c.maxOver = max(c.maxOver, o.maxOver)
	c.maxSent = max(c.maxSent, o.maxSent)
	c.pastDue += o.pastDue
	c.sentKnown += o.sentKnown
	c.refused += o.refused
	c.dups += o.dups
	c.missing += o.missing
	c.unexpected(o.unexpects...)
}

func (c *callerTally) unexpected(msgs ...string) {
	for _, m := range msgs {
		if len(c.unexpects) < maxUnexpects {
			c.unexpects = append(c.unexpects, m)
		}
	}
}

// start records that a call was made.
func (c *callerTally) start(lv *live) {
	c.started++
	lv.started.Add(1)
}

// answered records one answer to call id on key: its class, whether it is
// on time (and when Tripwire sent it, if it was not), and whether an ok
// answer is the call's own.
func (c *callerTally) answered(lv *live, key int, id int64, err error, begin, end time.Time, budget time.Duration, own bool) {
	o := Classify(err)
	lv.perKey[key][o].Add(1)
	c.answers[o]++
	if o == OK && !own {
		c.crossed++
	}
	if o == Other || o == ShutDown {
		c.unexpected(err.Error())
	}
	over := end.Sub(begin) - budget
	if over <= 0 {
		return
	}
	c.maxOver = max(c.maxOver, over)
	lv.maxOver.observe(int64(over))
	deadline := begin.Add(budget)
	c.pastDue++
	sent, known := lv.sends.at(id)
	if known {
		c.sentKnown++
		c.maxSent = max(c.maxSent, sent.Sub(deadline))
	}
	if over <= LateSlack {
		return
	}
	lv.lates.Add(1)
	if len(c.lates) < maxLates {
		c.lates = append(c.lates, LateAnswer{Kind: o, Deadline: deadline, End: end, Sent: sent})
	} else {
		c.lateLost++
	}
}
