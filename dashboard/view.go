package dashboard

// view is one event stream's filter and what the board picked for it at
// its last tick.
type view struct {
	filter  filter
	keys    []string
	matched int
	ticked  chan struct{} // a tick is done: cap 1, so ticks a stream has not read yet merge
}

// join adds a stream's view: from the next tick its keys are asked every
// refresh.
func (b *board) join(f filter) *view {
	v := &view{filter: f, ticked: make(chan struct{}, 1)}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.views[v] = struct{}{}
	return v
}

// leave removes v.
func (b *board) leave(v *view) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.views, v)
}

func (v *view) poke() {
	select {
	case v.ticked <- struct{}{}:
	default:
	}
}

// frame is what v shows now: its keys in order, the rows the board has of
// them, how many keys it matches, and the summary.
func (b *board) frame(v *view) ([]string, map[string]Row, int, Summary) {
	b.mu.Lock()
	defer b.mu.Unlock()
	rows := make(map[string]Row, len(v.keys))
	for _, k := range v.keys {
		if r := b.rows[k]; r != nil {
			rows[k] = *r
		}
	}
	return v.keys, rows, v.matched, b.summary
}
