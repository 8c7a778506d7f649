package dashboard

import (
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// An open circuit re-opens at every failed probe, and its Since and
// OpenedAt with it: a dependency down for an hour would look freshly
// broken. The outage a circuit is in began when it last left closed. The
// breaker knows when (the episode that Transition.OpenFor counts from) but
// no Snapshot says it, so the board takes it from what it sees:
//
//   - the transition from closed, if the board saw it (it follows every
//     transition from the handler's start): exact;
//   - else a snapshot of a circuit that has not re-opened since it left
//     closed (Reopens 0) and is not forced open (ForceOpen of an open
//     circuit restarts OpenedAt): OpenedAt, exact;
//   - else the outage began before the board could see it: at the latest
//     at the earlier of OpenedAt and the handler's start; the row says so
//     (DownAtLeast). (Unless the registry's subscriber fell more than 1,024
//     transitions behind and missed the trip: Subscribe logs that.)

// outage sets r's DownSince and DownAtLeast, and m.down when it learns it.
// fresh says whether r's state is s's (not a transition newer than s).
func (b *board) outage(r *Row, m *mark, s tripwire.Snapshot, fresh bool) {
	r.DownSince, r.DownAtLeast = time.Time{}, false
	switch {
	case r.State == state.Closed:
		if fresh {
			m.down = 0
		}
		return
	case m.down != 0:
		r.DownSince = utc(time.Unix(0, m.down))
		return
	case fresh && s.Reopens == 0 && s.Forced != state.ForcedOpen && !s.OpenedAt.IsZero():
		m.down = s.OpenedAt.UnixNano()
		r.DownSince = utc(s.OpenedAt)
		return
	}
	latest := b.from
	if !s.OpenedAt.IsZero() && s.OpenedAt.Before(latest) {
		latest = s.OpenedAt
	}
	r.DownSince, r.DownAtLeast = utc(latest), true
}

// noteOutage keeps in m when the outage tr is in began: tr leaves closed,
// or ends it.
func noteOutage(m *mark, tr state.Transition) {
	switch {
	case tr.From == state.Closed && tr.To != state.Closed:
		m.down = tr.At.UnixNano()
	case tr.To == state.Closed:
		m.down = 0
	}
}
