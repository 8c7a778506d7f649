package dashboard

import (
	"sync"
	"sync/atomic"
	"time"
)

// board is the dashboard's picture of a registry, kept so that an update
// costs what the pages show and the keys in trouble, not the registry's
// size: marks of the keys not healthy (from transitions, as they come, and
// from looks at their breakers), the rows of the keys pages show (asked
// every refresh), and a census of the key list now and then.
type board struct {
	reg     registry
	refresh time.Duration
	from    time.Time // when it began to follow the registry's transitions

	mu     sync.Mutex
	marks  map[string]*mark
	ranked []string // the marked keys, worst first then by key; nil: to sort again
	rows   map[string]*Row
	shown  map[string]bool // the keys the streams' views picked at the last tick
	views  map[*view]struct{}
	census census
	// late are keys seen since the census (a transition, a look) that it
	// did not list; gone are keys it listed that the registry no longer has.
	late    map[string]struct{}
	gone    map[string]struct{}
	summary Summary
	down    bool      // the registry has shut down
	demand  time.Time // of the last list request

	ticks     atomic.Int64  // refreshes done, which the tests count asks by
	wake      chan struct{} // someone looks: a census may be due
	ready     chan struct{} // closed once the first census is in (or failed)
	readyOnce sync.Once
	alone     sync.Mutex // a census on a looker's goroutine, after Close (censusNow)
}

func newBoard(reg registry, refresh time.Duration) *board {
	return &board{reg: reg, refresh: refresh, from: time.Now(), marks: map[string]*mark{}, rows: map[string]*Row{},
		shown: map[string]bool{}, views: map[*view]struct{}{}, late: map[string]struct{}{}, gone: map[string]struct{}{},
		wake: make(chan struct{}, 1), ready: make(chan struct{})}
}

// isDown reports whether the board has seen the registry shut down.
func (b *board) isDown() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.down
}
