package dashboard

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tripwire-go/tripwire"
)

// census is the registry's key list as the last census read it, sorted:
// what the dashboard counts the keys by and fills a page with healthy keys
// from, in key order, without listing the registry on every update.
type census struct {
	keys []censusKey
	at   time.Time
	took time.Duration
}

// censusKey is one key of a census: 24 bytes beside the key's string,
// which the registry's table already holds.
type censusKey struct {
	key      string
	restarts int32
	asleep   bool // passivated: not asked, which would wake it
}

// span is the range of c.keys that start with prefix, found by two binary
// searches: the keys with prefix are the first of those from prefix on.
func (c *census) span(prefix string) (lo, hi int) {
	lo, _ = slices.BinarySearchFunc(c.keys, prefix, byKey)
	rest := c.keys[lo:]
	hi = lo + sort.Search(len(rest), func(i int) bool { return !strings.HasPrefix(rest[i].key, prefix) })
	return lo, hi
}

// find returns key's place in c.keys.
func (c *census) find(key string) (int, bool) {
	return slices.BinarySearchFunc(c.keys, key, byKey)
}

func byKey(k censusKey, key string) int { return strings.Compare(k.key, key) }

// censusResult is a census and the snapshots it kept.
type censusResult struct {
	census
	snaps []tripwire.Snapshot
	err   error
}

// takeCensus reads every key of reg once: Snapshots asks the awake
// breakers 64 at a time and reports the passivated keys without waking
// them. It keeps the snapshots keep wants (keys not healthy, keys a page
// shows) and of the others only the key.
func takeCensus(ctx context.Context, reg registry, keep func(tripwire.Snapshot) bool) censusResult {
	start := time.Now()
	var res censusResult
	res.err = reg.Snapshots(ctx, tripwire.Filter{Passivated: true}, func(s tripwire.Snapshot) bool {
		res.keys = append(res.keys, censusKey{key: s.Key, restarts: int32(min(s.Restarts, 1<<31-1)), asleep: s.Passivated})
		if keep(s) {
			res.snaps = append(res.snaps, s)
		}
		return true
	})
	slices.SortFunc(res.keys, func(a, b censusKey) int { return strings.Compare(a.key, b.key) })
	res.at, res.took = start, time.Since(start)
	return res
}

// Census pacing: a census takes at most 1/censusShare of the time (at a
// million keys, about 3 s every 150 s), and comes at most every
// censusTicks refreshes.
const (
	censusShare = 50
	censusTicks = 5
)

// censusDue reports whether the next census may start at now, the last one
// having been c (none yet: at once).
func censusDue(c census, refresh time.Duration, now time.Time) bool {
	if c.at.IsZero() {
		return true
	}
	wait := max(censusShare*c.took, censusTicks*refresh)
	return now.Sub(c.at.Add(c.took)) >= wait
}
