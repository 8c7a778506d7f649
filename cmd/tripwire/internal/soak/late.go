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
	// Sent is when Tripwire sent the answer, in a build with the tag
	// tripwire_sendhook (see sendTimes); zero where it is not known: in a
	// build without it, and for an answer the caller gave itself (its
	// context was cancelled).
	Sent time.Time
}

// Over is how long after its deadline the answer came.
func (l LateAnswer) Over() time.Duration { return l.End.Sub(l.Deadline) }

// SentOnTime reports whether Tripwire sent the answer within LateSlack of
// the deadline: the caller then waited to be run for the rest.
func (l LateAnswer) SentOnTime() bool {
	return !l.Sent.IsZero() && l.Sent.Sub(l.Deadline) <= LateSlack
}

// Waited is how long the caller took to run after Tripwire sent the answer
// (0 if that is not known).
func (l LateAnswer) Waited() time.Duration {
	if l.Sent.IsZero() {
		return 0
	}
	return l.End.Sub(l.Sent)
}

func (l LateAnswer) String() string {
	if l.Sent.IsZero() {
		return fmt.Sprintf("%v %v late", l.Kind, l.Over().Round(time.Microsecond))
	}
	return fmt.Sprintf("%v %v late, sent %v after the deadline", l.Kind, l.Over().Round(time.Microsecond),
		l.Sent.Sub(l.Deadline).Round(time.Microsecond))
}

// excused reports whether the answer is on time but for the process not
// being run: whether Tripwire sent it within LateSlack of the deadline, or
// the process was not run, between the deadline and the answer's send (its
// arrival where the send is not known), for at least as long as it is late
// beyond LateSlack. spans are in time order and disjoint, as the probe
// records them.
func (l LateAnswer) excused(spans []Span) bool {
	end := l.End
	if !l.Sent.IsZero() {
		end = l.Sent
	}
	over := end.Sub(l.Deadline) - LateSlack
	if over <= 0 {
		return true
	}
	var idle time.Duration
	first := sort.Search(len(spans), func(i int) bool { return spans[i].To.After(l.Deadline) })
	for _, sp := range spans[first:] {
		if !sp.From.Before(end) {
			break
		}
		idle += earlier(sp.To, end).Sub(later(sp.From, l.Deadline))
	}
	return over <= idle
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
