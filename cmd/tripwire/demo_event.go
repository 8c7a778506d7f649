package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/tripwire-go/tripwire/state"
)

// demoEvent is one thing that happened during the demo, worth a line of its
// own: a breaker's transition, or the demo's own fault injection.
type demoEvent struct {
	at         time.Duration // since the demo's clock started
	key        string
	transition bool        // from and to are set
	from, to   state.State // the transition's states
	detail     string      // why, or what the demo did
}

// transitionEvent is t as an event, its time taken from start.
func transitionEvent(start time.Time, t state.Transition) demoEvent {
	detail := t.Reason.String()
	switch {
	case t.To == state.Open && t.Reason != state.ReasonTargetDown && t.Failures > 0:
		detail += fmt.Sprintf(", %d failure%s", t.Failures, map[bool]string{true: "s"}[t.Failures != 1])
	case t.To == state.Closed && t.OpenFor > 0:
		detail += ", not closed for " + fmtDur(t.OpenFor)
	}
	return demoEvent{at: t.At.Sub(start), key: t.Key, transition: true, from: t.From, to: t.To, detail: detail}
}

// line is the event as text; paint colours its new state, if it has one.
func (e demoEvent) line(paint func(state.State, string) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %s  ", fmtAt(e.at), e.key)
	if e.transition {
		fmt.Fprintf(&b, "%s -> %s (%s)", e.from, paint(e.to, e.to.String()), e.detail)
	} else {
		b.WriteString(e.detail)
	}
	return b.String()
}

// fmtAt is a time since the start, aligned for a column.
func fmtAt(d time.Duration) string { return fmt.Sprintf("%7.2fs", d.Seconds()) }

// fmtDur is a duration with two or three significant digits; 0 is "-".
func fmtDur(d time.Duration) string {
	switch {
	case d <= 0:
		return "-"
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < 10*time.Millisecond:
		return d.Round(100 * time.Microsecond).String()
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(10 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// plain leaves a state's text as it is.
func plain(_ state.State, s string) string { return s }
