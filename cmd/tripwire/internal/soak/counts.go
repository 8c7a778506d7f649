package soak

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// Counts is a tally of answers by outcome.
type Counts [NumAnswers]int64

// Add adds o to c.
func (c *Counts) Add(o Counts) {
	for i := range c {
		c[i] += o[i]
	}
}

// Sum is the number of answers of every outcome.
func (c Counts) Sum() int64 {
	var n int64
	for _, v := range c {
		n += v
	}
	return n
}

// String lists the outcomes that occurred: "ok=12 open=3".
func (c Counts) String() string {
	var b strings.Builder
	for i, v := range c {
		if v != 0 {
			fmt.Fprintf(&b, " %s=%d", Answer(i), v)
		}
	}
	return strings.TrimSpace(b.String())
}

// liveCounts is a Counts that callers add to concurrently.
type liveCounts [NumAnswers]atomic.Int64

func (l *liveCounts) load() Counts {
	var c Counts
	for i := range l {
		c[i] = l[i].Load()
	}
	return c
}
