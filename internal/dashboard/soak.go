package dashboard

import (
	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/internal/soak"
)

// soakSource is the Source of a soak run in progress.
type soakSource struct{ live *soak.Live }

// FromSoak returns the Source of the soak run live shows (soak.Config.Watch
// gets it): a row per key with its breaker's snapshot and what the soak's
// callers got, its crashes made through the run so that the run counts
// them. Give New live.Registry() with it. A nil live is ErrNilArgument.
//
// The soak's outcomes go to the rows' counts by their kind (soak.Answer.Kind,
// demo.Counts.Add): ok to OK; injected, down, panic, target_down (and the
// unexpected shutdown and other) to Failed; timeout to Timeouts; open to
// Rejected; restarted to Restarted. A call its caller withdrew (canceled) is
// in Calls only. DependencyDown says the key's
// target is dead now, DependencyHits how many calls reached it.
func FromSoak(live *soak.Live) (Source, error) {
	if live == nil {
		return nil, ErrNilArgument
	}
	return soakSource{live: live}, nil
}

// Rows returns every key's row, in key order.
func (s soakSource) Rows() []demo.Row {
	reg := s.live.Registry()
	stats := s.live.Stats()
	rows := make([]demo.Row, len(stats))
	for i, st := range stats {
		snap, err := reg.Snapshot(st.Key)
		if err != nil {
			snap = tripwire.Snapshot{Key: st.Key}
		}
		rows[i] = demo.Row{Snapshot: snap, Counts: countsOf(st.Answers), P50: st.P50, P99: st.P99,
			DependencyDown: st.TargetDown, DependencyHits: st.TargetCalls, Err: err}
	}
	return rows
}

// Crash crashes key's breaker through the run (soak.Live.Crash).
func (s soakSource) Crash(key string) error { return s.live.Crash(key) }

// countsOf sorts a soak key's answers into the dashboard's counts, by the
// kind of answer each outcome is.
func countsOf(a soak.Counts) demo.Counts {
	var c demo.Counts
	for o, n := range a {
		c.Add(soak.Answer(o).Kind(), n)
	}
	return c
}
