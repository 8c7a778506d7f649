package dashboard

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"
)

// want records that someone looks at the board, so a census runs, and
// waits for the first census (or ctx). Once stop is closed, the board's
// goroutine takes none, so the caller does (censusNow).
func (b *board) want(ctx context.Context, stop <-chan struct{}) error {
	b.mu.Lock()
	b.demand = time.Now()
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
	select {
	case <-b.ready: // first, so a closed handler with a census still answers
		return nil
	default:
	}
	select {
	case <-b.ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-stop:
		return b.censusNow(ctx)
	}
}

// censusNow takes the first census on the caller's goroutine, for a look
// after Close stopped the board's own before it took one: one at a time,
// and none once one is in. It is tripwire.ErrShutdown if the registry has.
func (b *board) censusNow(ctx context.Context) error {
	b.alone.Lock()
	defer b.alone.Unlock()
	select {
	case <-b.ready:
		return nil
	default:
	}
	keep := b.censusKeep(time.Now())
	if keep == nil {
		return errShutdown // the only reason before a first census
	}
	res := takeCensus(ctx, b.reg, keep)
	if err := ctx.Err(); err != nil {
		return err
	}
	b.merge(res)
	return nil
}

// look returns what f shows now, asking its keys' breakers at once: the
// rows in order, how many keys f matches, and the summary. It costs what
// pick does, and an ask per key shown.
func (b *board) look(f filter) ([]Row, int, Summary) {
	b.mu.Lock()
	keys, matched := b.pick(f)
	due, asleep := b.split(keys)
	b.mu.Unlock()
	asked := b.ask(due)
	b.mu.Lock()
	defer b.mu.Unlock()
	rows := make([]Row, 0, len(keys))
	for _, k := range keys {
		if r, ok := asked[k]; ok {
			rows = append(rows, r)
		} else if r, ok := asleep[k]; ok {
			rows = append(rows, r)
		}
	}
	// a look may have found a key worse than its mark said: order again
	slices.SortFunc(rows, func(x, y Row) int {
		return cmp.Or(cmp.Compare(y.Severity, x.Severity), strings.Compare(x.Key, y.Key))
	})
	b.summary = b.count()
	return rows, matched, b.summary
}
