package main

import (
	"fmt"
	"strings"
	"time"

	remotenode "github.com/tripwire-go/tripwire/internal/node"
	"github.com/tripwire-go/tripwire/state"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
)

// describeDemo is what the demo is about to do, in a few lines.
func describeDemo(o demoOptions) []string {
	c := o.cfg
	keys := demo.KeyName(0)
	if c.Keys > 1 {
		keys += ".." + demo.KeyName(c.Keys-1)
	}
	lines := []string{
		fmt.Sprintf("demo: %d key(s) (%s), %d callers each, every %v, for %v", c.Keys, keys, c.Callers, c.Interval, o.duration),
		"dependency: " + describeDependency(c),
		"breakers: " + describeSettings(c.Settings),
	}
	if o.crashAt > 0 && o.crashAt < o.duration {
		lines = append(lines, fmt.Sprintf("fault injection: %s's breaker crashes at %v", demo.KeyName(0), o.crashAt))
	}
	return lines
}

func describeDependency(c demo.Config) string {
	var s string
	window := fmt.Sprintf("from %v to %v", c.DownAt, c.UpAt)
	switch c.Pattern {
	case demo.Remote:
		return fmt.Sprintf("the %q actor of the tripwire node at %s, over protoactor's remote; stop and restart the node to see the breakers react", remotenode.Name, c.Remote)
	case demo.Flaky:
		return fmt.Sprintf("flaky, fails %g%% of calls at random; latency %v", c.FailRate*100, c.Latency)
	case demo.DownUp:
		s = "down-up, fails " + window + ", every fifth call hanging past its deadline"
	case demo.Slow:
		if c.Settings.SlowCall > 0 && c.Settings.SlowCall < callTimeout(c.Settings) {
			s = "slow " + window + ": slower than -slow-call, within the call timeout"
		} else {
			s = "slow " + window + ": slower than the call timeout"
		}
	case demo.Dies:
		s = "dies, an actor stopped at " + c.DownAt.String() + " and started again at " + c.UpAt.String()
	}
	if c.Cycle > 0 {
		s += fmt.Sprintf(", again every %v", c.Cycle)
	}
	if c.Stagger > 0 && c.Keys > 1 {
		s += fmt.Sprintf(", each key %v after the one before", c.Stagger)
	}
	return s + fmt.Sprintf("; latency %v", c.Latency)
}

// describeSettings names the policies s sets, with the defaults it leaves.
func describeSettings(s tripwire.Settings) string {
	var parts []string
	if w := s.Window; w.Size > 0 || w.Period > 0 {
		rate := w.FailureRate
		if rate == 0 {
			rate = state.DefaultFailureRate
		}
		over := fmt.Sprintf("the last %d calls", w.Size)
		if w.Period > 0 {
			over = "the last " + w.Period.String()
		}
		parts = append(parts, fmt.Sprintf("failure rate %g%% over %s", rate*100, over))
	} else {
		parts = append(parts, fmt.Sprintf("threshold %d", or(s.Threshold, state.DefaultThreshold)))
	}
	open := "open " + or(s.OpenTimeout, state.DefaultOpenTimeout).String()
	var backoff []string
	if b := s.Backoff; b.Multiplier > 1 {
		backoff = append(backoff, fmt.Sprintf("×%g per re-open", b.Multiplier))
	}
	if b := s.Backoff; b.Max > 0 {
		backoff = append(backoff, "at most "+b.Max.String())
	}
	if b := s.Backoff; b.Jitter > 0 {
		backoff = append(backoff, fmt.Sprintf("±%g%%", b.Jitter*100))
	}
	if len(backoff) > 0 {
		open += " (" + strings.Join(backoff, ", ") + ")"
	}
	parts = append(parts, open, "call timeout "+callTimeout(s).String())
	if s.SlowCall > 0 {
		parts = append(parts, "slow call "+s.SlowCall.String())
	}
	if s.HalfOpenProbes > 1 {
		parts = append(parts, fmt.Sprintf("%d probes", s.HalfOpenProbes))
	}
	if s.MaxInFlight > 0 {
		parts = append(parts, fmt.Sprintf("max %d in flight", s.MaxInFlight))
	}
	if s.IgnoreTargetDown {
		parts = append(parts, "target not watched")
	}
	return strings.Join(parts, ", ")
}

func callTimeout(s tripwire.Settings) time.Duration {
	return or(s.CallTimeout, state.DefaultCallTimeout)
}

// or is v, or def if v is zero.
func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// dependencyText is the dependency's condition in a row: up, or how it
// misbehaves now. A flaky one is always flaky.
func dependencyText(p demo.Pattern, r demo.Row) string {
	switch {
	case p == demo.Flaky:
		return "flaky"
	case p == demo.Remote:
		return "remote"
	case !r.DependencyDown:
		return "up"
	case p == demo.Slow:
		return "slow"
	case p == demo.Dies:
		return "dead"
	}
	return "down"
}
