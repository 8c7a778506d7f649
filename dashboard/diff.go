package dashboard

import "time"

// Frame is a "rows" event of a stream: the rows that changed since the
// stream's last frame, the keys it no longer shows, how many keys its
// filter matches and the summary. The first frame has Reset and every row
// shown.
type Frame struct {
	Reset   bool      `json:"reset,omitempty"`
	Rows    []Row     `json:"rows"`
	Removed []string  `json:"removed,omitempty"`
	Matched int       `json:"matched"`
	Summary Summary   `json:"summary"`
	At      time.Time `json:"at"`
}

// diff is what one stream has sent, so it sends only what changed.
type diff struct {
	sent    map[string]Row
	matched int
	summary Summary
}

func newDiff() *diff { return &diff{sent: map[string]Row{}} }

// first is the stream's first frame: every row.
func (d *diff) first(rows []Row, matched int, sum Summary) Frame {
	for _, r := range rows {
		d.sent[r.Key] = r
	}
	d.matched, d.summary = matched, sum
	return Frame{Reset: true, Rows: rows, Matched: matched, Summary: sum, At: utc(time.Now())}
}

// next is the frame of what changed, to show keys with the rows it has of
// them; ok is false if nothing did. A key shown whose row is missing (its
// breaker did not answer) keeps the row sent before.
func (d *diff) next(keys []string, rows map[string]Row, matched int, sum Summary) (f Frame, ok bool) {
	shown := make(map[string]bool, len(keys))
	for _, k := range keys {
		shown[k] = true
		r, has := rows[k]
		if !has {
			continue
		}
		if old, was := d.sent[k]; !was || !old.same(r) {
			f.Rows = append(f.Rows, r)
			d.sent[k] = r
		}
	}
	for k := range d.sent {
		if !shown[k] {
			f.Removed = append(f.Removed, k)
			delete(d.sent, k)
		}
	}
	changed := len(f.Rows) > 0 || len(f.Removed) > 0 || matched != d.matched || !sameSummary(sum, d.summary)
	d.matched, d.summary = matched, sum
	if !changed {
		return Frame{}, false
	}
	f.Rows = append([]Row{}, f.Rows...) // [] rather than null in JSON
	f.Matched, f.Summary, f.At = matched, sum, utc(time.Now())
	return f, true
}

// sameSummary compares the counts: a census that found them as they were
// is no change.
func sameSummary(a, b Summary) bool {
	a.Census, a.CensusMs = time.Time{}, 0
	b.Census, b.CensusMs = time.Time{}, 0
	return a == b
}
