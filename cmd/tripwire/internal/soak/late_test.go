package soak

import (
	"slices"
	"testing"
	"time"
)

func TestLateAnswerIsExcusedOnlyByOverlappingStalls(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	// Given an answer 150 ms after its deadline: 100 ms beyond LateSlack
	late := LateAnswer{Kind: Timeout, Deadline: at(0), End: at(150)}
	cases := []struct {
		name   string
		stalls []Span
		want   bool
	}{
		{"no stall", nil, false},
		{"stall before the deadline", []Span{{at(-300), at(0)}}, false},
		{"stall after the answer", []Span{{at(150), at(400)}}, false},
		{"99 ms of stall inside", []Span{{at(10), at(109)}}, false},
		{"100 ms of stall inside", []Span{{at(10), at(110)}}, true},
		{"two stalls adding up", []Span{{at(0), at(60)}, {at(100), at(140)}}, true},
		{"a stall overlapping the deadline", []Span{{at(-50), at(100)}}, true},
	}
	for _, c := range cases {
		// When the stalls are weighed, Then only enough overlap excuses it
		if got := late.excused(c.stalls); got != c.want {
			t.Errorf("%s: excused %v, want %v", c.name, got, c.want)
		}
	}
}

func TestALateAnswerWithASendTimeIsJudgedBySend(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	cases := []struct {
		name   string
		late   LateAnswer
		stalls []Span
		want   bool
	}{
		// Given an answer that reached its caller 150 ms after its deadline
		{"sent at the deadline", LateAnswer{Deadline: at(0), End: at(150), Sent: at(0)}, nil, true},
		{"sent within LateSlack", LateAnswer{Deadline: at(0), End: at(150), Sent: at(50)}, nil, true},
		{"sent 1 ms over LateSlack", LateAnswer{Deadline: at(0), End: at(150), Sent: at(51)}, nil, false},
		{"sent late, a stall before the send", LateAnswer{Deadline: at(0), End: at(150), Sent: at(120)}, []Span{{at(10), at(80)}}, true},
		// a stall after the send explains the caller's wait, not the send
		{"sent late, a stall after the send", LateAnswer{Deadline: at(0), End: at(150), Sent: at(120)}, []Span{{at(120), at(150)}}, false},
	}
	for _, c := range cases {
		// When it is weighed, Then the send is judged, not the caller's wait
		if got := c.late.excused(c.stalls); got != c.want {
			t.Errorf("%s: excused %v, want %v", c.name, got, c.want)
		}
		if on := !c.late.Sent.After(at(50)); c.late.SentOnTime() != on || c.late.Waited() != at(150).Sub(c.late.Sent) {
			t.Errorf("%s: sent on time %v, waited %v", c.name, c.late.SentOnTime(), c.late.Waited())
		}
	}
	// and one whose send is not known is judged by when it arrived
	if l := (LateAnswer{Deadline: at(0), End: at(150)}); l.excused(nil) || l.SentOnTime() || l.Waited() != 0 {
		t.Errorf("no send time: excused %v, on time %v, waited %v", l.excused(nil), l.SentOnTime(), l.Waited())
	}
}

func TestSpansAddUp(t *testing.T) {
	t0 := time.Unix(1000, 0)
	// Given stalls of 3 ms and 5 ms
	spans := []Span{{t0, t0.Add(3 * time.Millisecond)}, {t0.Add(10 * time.Millisecond), t0.Add(15 * time.Millisecond)}}
	// Then the longest is 5 ms and they total 8 ms
	if Longest(spans) != 5*time.Millisecond || Total(spans) != 8*time.Millisecond {
		t.Fatalf("longest %v, total %v", Longest(spans), Total(spans))
	}
}

func TestTheProbesStallsAreTheirUnion(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	// Given what two probes saw, in the order they added it: one stall
	// each that overlap, one of one probe inside the other's, one touching
	// another, and one apart
	var s stalls
	for _, p := range []struct {
		probe int
		sp    Span
	}{{0, Span{at(0), at(30)}}, {1, Span{at(20), at(50)}}, {0, Span{at(100), at(200)}}, {1, Span{at(120), at(130)}}, {1, Span{at(200), at(210)}}, {0, Span{at(300), at(301)}}} {
		s.add(p.probe, p.sp)
	}
	// When the report takes them
	got := s.spans()
	// Then they are the union, in time order and disjoint
	want := []Span{{at(0), at(50)}, {at(100), at(210)}, {at(300), at(301)}}
	if !slices.Equal(got, want) {
		t.Fatalf("spans %v, want %v", got, want)
	}
	// and a late answer is weighed against the union, not their sum
	late := LateAnswer{Kind: Timeout, Deadline: at(100), End: at(265)}
	if late.excused(got) {
		t.Fatalf("%v excused by %v of stalls", late, Total(got))
	}
}

func TestALateAnswerOnlyTheProbesTogetherExplainIsTold(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	// Given an answer 100 ms late (50 beyond LateSlack), and two probes
	// that each saw 40 ms of it
	late := LateAnswer{Kind: Timeout, Deadline: at(0), End: at(100)}
	var s stalls
	s.add(0, Span{at(0), at(40)})
	s.add(1, Span{at(50), at(90)})
	// Then their union explains it, and neither alone does
	if !late.excused(s.spans()) || s.alone(late) {
		t.Fatalf("union %v explains %v: %v; one probe alone: %v", s.spans(), late, late.excused(s.spans()), s.alone(late))
	}
	// and one probe that saw 50 ms explains it alone
	s.add(2, Span{at(10), at(60)})
	if !s.alone(late) {
		t.Fatalf("probe 2's 50 ms does not explain %v", late)
	}
}
