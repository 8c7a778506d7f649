package bench

import (
	"context"
	"testing"
	"time"
)

// hotKeyRound is how many calls one side's round of
// BenchmarkHotKeyActorInterleaved makes, over its 64 callers: some tens of
// milliseconds, short enough that both sides see the same machine.
const hotKeyRound = 20_000

// BenchmarkHotKeyActorInterleaved is BenchmarkHotKeyActor at 64 callers
// with the two sides alternating: one op is a round of Tripwire's calls and
// a round of RequestFuture's, and the metrics are each side's calls/s over
// all its rounds and their ratio (issue 15's target: >= 1.2). The separate
// sub-benchmarks run seconds apart, and this machine's speed moves by more
// than the difference being measured within minutes.
func BenchmarkHotKeyActorInterleaved(b *testing.B) {
	sys, pid, reg := echoKey(b)
	ctx := context.Background()
	const callers = 64
	round := func(call func() (any, error)) time.Duration { return callersRound(b, callers, hotKeyRound, call) }
	viaTripwire := func() (any, error) { return reg.Call(ctx, "echo", msg) }
	viaFuture := func() (any, error) { return ask(sys, pid) }
	var tw, rf time.Duration
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 { // each side goes first in half the ops
			tw += round(viaTripwire)
			rf += round(viaFuture)
		} else {
			rf += round(viaFuture)
			tw += round(viaTripwire)
		}
	}
	calls := float64(b.N * (hotKeyRound / callers * callers))
	b.ReportMetric(calls/tw.Seconds(), "tripwire-calls/s")
	b.ReportMetric(calls/rf.Seconds(), "future-calls/s")
	b.ReportMetric(float64(rf)/float64(tw), "ratio")
}
