package grain

import (
	"errors"

	"github.com/tripwire-go/tripwire"
)

// minSweep is the fewest entries at which a failover sweeps.
const minSweep = 1024

// sweep is queued for run when a failover has made as many entries since
// its last sweep as it had keys registered then (minSweep at least).
type sweep struct{}

// sweep drops the entries of keys the registry does not have at two sweeps
// in a row: keys WithMaxKeys forgot, or whose Register failed. One sweep
// is not enough, as Target is called before its key is registered (in a
// factory). With R keys registered, a failover holds at most R + 2 max(R,
// minSweep) entries, and a sweep, a registry lookup per entry, comes every
// max(R, minSweep) entries made: at most three lookups per entry made.
func (f *Failover) sweep() {
	f.mu.Lock()
	all := make([]*entry, 0, len(f.entries))
	for _, e := range f.entries {
		all = append(all, e)
	}
	f.mu.Unlock()
	registered := make([]bool, len(all))
	n := 0
	for i, e := range all {
		_, err := f.reg.State(e.key) // never wakes a passivated key
		if registered[i] = !errors.Is(err, tripwire.ErrUnknownKey); registered[i] {
			n++
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, e := range all {
		switch {
		case registered[i]:
			e.unseen = false
		case e.unseen:
			f.unindex(e)
			if f.entries[e.key] == e {
				delete(f.entries, e.key)
			}
		default:
			e.unseen = true
		}
	}
	f.sweepAt = len(f.entries) + max(n, minSweep)
}
