package demo

import (
	"fmt"
	"strings"
	"time"
)

// Pattern is how the built-in dependency misbehaves.
type Pattern string

const (
	// Flaky fails a share of calls (FailRate) at random, all the time.
	Flaky Pattern = "flaky"
	// DownUp is healthy, then down from DownAt to UpAt (failing fast, every
	// fifth call hanging past its deadline), then healthy again.
	DownUp Pattern = "down-up"
	// Slow is healthy, then slow from DownAt to UpAt, then healthy again:
	// slower than the call timeout (calls time out), or, with a SlowCall
	// below the call timeout, between the two (calls succeed but count as
	// slow).
	Slow Pattern = "slow"
	// Dies is an actor that stops at DownAt and is started again under the
	// same name at UpAt: the breaker sees the target die.
	Dies Pattern = "dies"
)

// Remote is not a pattern of the built-in dependency but another process's:
// every key calls the dependency actor of a Node at Config.Remote (the
// tripwire node command), which misbehaves when its user stops it.
const Remote Pattern = "remote"

// Patterns lists every pattern of the built-in dependency, for flag help.
var Patterns = []Pattern{Flaky, DownUp, Slow, Dies}

// ParsePattern returns the pattern named s.
func ParsePattern(s string) (Pattern, error) {
	for _, p := range Patterns {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: %q (want one of %s)", ErrUnknownPattern, s, PatternNames())
}

// PatternNames is the patterns' names joined by ", ".
func PatternNames() string {
	names := make([]string, len(Patterns))
	for i, p := range Patterns {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}

// window is when one key's dependency is down: from downAt to upAt after
// start + offset, repeated every cycle if cycle > 0.
type window struct {
	start        time.Time
	offset       time.Duration
	downAt, upAt time.Duration
	cycle        time.Duration
}

// down reports whether the dependency is down at now.
func (w window) down(now time.Time) bool {
	t := now.Sub(w.start) - w.offset
	if t < 0 {
		return false
	}
	if w.cycle > 0 {
		t %= w.cycle
	}
	return t >= w.downAt && t < w.upAt
}

// next returns the first moment after now at which down changes, and false
// if it never changes again.
func (w window) next(now time.Time) (time.Time, bool) {
	t := now.Sub(w.start) - w.offset
	var base time.Duration
	if w.cycle > 0 && t >= 0 {
		base = t - t%w.cycle
	}
	edges := []time.Duration{w.downAt, w.upAt}
	if w.cycle > 0 {
		edges = append(edges, w.cycle+w.downAt)
	}
	for _, edge := range edges {
		if at := base + edge; at > t {
			return w.start.Add(w.offset + at), true
		}
	}
	return time.Time{}, false
}
