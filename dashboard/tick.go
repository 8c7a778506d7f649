package dashboard

import (
	"cmp"
	"context"
	"slices"
	"time"
)

// refreshBudget is how many breakers of keys not shown, but marked, a tick
// asks besides the shown ones (the least recently asked first), so their
// marks follow what they do.
const refreshBudget = 256

// run ticks every refresh while a stream follows the board, and takes a
// census when one is due and someone looks. It returns when ctx ends, or
// at the first tick after the registry has shut down (so a handler never
// closed does not outlive its registry), after the census under way, if
// any, has stopped.
func (b *board) run(ctx context.Context) {
	t := time.NewTicker(b.refresh)
	defer t.Stop()
	var census chan censusResult
	defer func() {
		if census != nil {
			<-census
		}
	}()
	for {
		if census == nil {
			if keep := b.censusKeep(time.Now()); keep != nil {
				census = make(chan censusResult, 1)
				go func() { census <- takeCensus(ctx, b.reg, keep) }()
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-b.wake:
		case <-t.C:
			if b.tick() {
				b.readyOnce.Do(func() { close(b.ready) }) // no census will come: a look waits no more
				return
			}
		case res := <-census:
			b.merge(res)
			census = nil
		}
	}
}

// tick picks every view's keys, asks their breakers and some marked ones,
// then tells the views. Once the registry is down it only tells them, so
// their streams end, and reports that it is.
func (b *board) tick() (down bool) {
	gone := shutDown(b.reg) // no breaker asked: at no cost to an idle board
	b.mu.Lock()
	if gone {
		b.down = true
	}
	if down = b.down; len(b.views) == 0 || down {
		for v := range b.views {
			v.poke()
		}
		b.mu.Unlock()
		return down
	}
	shown := map[string]bool{}
	var keys []string
	for v := range b.views {
		v.keys, v.matched = b.pick(v.filter)
		for _, k := range v.keys {
			if !shown[k] {
				shown[k] = true
				keys = append(keys, k)
			}
		}
	}
	b.shown = shown
	for k := range b.rows {
		if !shown[k] {
			delete(b.rows, k)
		}
	}
	due, asleep := b.split(keys)
	for k, r := range asleep {
		b.rows[k] = &r
	}
	due = append(due, b.stale(shown)...)
	b.mu.Unlock()

	b.ask(due)

	b.mu.Lock()
	defer b.mu.Unlock()
	b.summary = b.count()
	b.ticks.Add(1)
	for v := range b.views {
		v.poke()
	}
	return false
}

// stale returns up to refreshBudget marked keys not shown, least recently
// asked first.
func (b *board) stale(shown map[string]bool) []string {
	var out []string
	for k := range b.marks {
		if !shown[k] {
			out = append(out, k)
		}
	}
	if len(out) > refreshBudget {
		slices.SortFunc(out, func(x, y string) int { return cmp.Compare(b.marks[x].asked, b.marks[y].asked) })
		out = out[:refreshBudget]
	}
	return out
}
