package soak

import (
	"fmt"
	"sort"
	"time"
)

// LateSlack is how far past its deadline an answer may come (the design's
// epsilon for CI; Tripwire's own backstop is deadline + ReplyGrace, 20 ms),
// on top of the time the process was not run at all while the caller waited
// (see Report.Stalls): no library answers a goroutine that is not run.
const LateSlack = 50 * time.Millisecond

// maxLates bounds the late answers one caller keeps.
const maxLates = 1000

// LateAnswer is an answer that came more than LateSlack after its deadline.
type LateAnswer struct {
	Kind          Answer
	Deadline, End time.Time
}

// Over is how long after its deadline the answer came.
func (l LateAnswer) Over() time.Duration { return l.End.Sub(l.Deadline) }

func (l LateAnswer) String() string {
	return fmt.Sprintf("%v %v late", l.Kind, l.Over().Round(time.Microsecond))
}

// excused reports whether the process was not run, between the call's
// deadline and its answer, for at least as long as the answer is late beyond
// LateSlack. spans are in time order and disjoint, as the probe records them.
func (l LateAnswer) excused(spans []Span) bool {
	var idle time.Duration
	first := sort.Search(len(spans), func(i int) bool { return spans[i].To.After(l.Deadline) })
	for _, sp := range spans[first:] {
		if !sp.From.Before(l.End) {
			break
		}
		idle += earlier(sp.To, l.End).Sub(later(sp.From, l.Deadline))
	}
	return l.Over()-LateSlack <= idle
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
