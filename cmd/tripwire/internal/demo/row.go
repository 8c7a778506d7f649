package demo

import (
	"context"
	"time"

	"github.com/tripwire-go/tripwire"
)

// Row is one key's line of a status table: its breaker's snapshot and what
// the demo's callers saw.
type Row struct {
	tripwire.Snapshot
	Counts
	P50, P99       time.Duration // latency of calls that went through: recent (Rows) or of the run (RunRows)
	DependencyDown bool          // the dependency is misbehaving now (per its pattern's window)
	DependencyHits int64         // calls that reached the dependency
	Err            error         // why the snapshot is missing, if it is
}

// Rows returns one row per key, in key order, its latency that of the
// last calls (latencyRing). A key whose snapshot cannot be taken (the
// registry shut down) gets a row with only the callers' part, its state
// reported closed.
func (d *Driver) Rows() []Row { return d.rows((*stats).read) }

// RunRows is Rows with the latency of every call of the run so far, for
// the summary.
func (d *Driver) RunRows() []Row { return d.rows((*stats).readRun) }

func (d *Driver) rows(read func(*stats) (Counts, time.Duration, time.Duration)) []Row {
	now := time.Now()
	rows := make([]Row, len(d.keys))
	for i, key := range d.keys {
		snap, err := d.reg.Snapshot(context.Background(), key)
		if err != nil {
			snap = tripwire.Snapshot{Key: key}
		}
		c, p50, p99 := read(d.stats[i])
		down := d.cfg.Pattern != Flaky && d.cfg.Pattern != Remote && d.wins[i].down(now)
		rows[i] = Row{Snapshot: snap, Counts: c, P50: p50, P99: p99,
			DependencyDown: down, DependencyHits: d.deps[i].calls.Load(), Err: err}
	}
	return rows
}
