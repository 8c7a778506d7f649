package dashboard

import (
	"context"
	"errors"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// answer is one breaker's answer to the board.
type answer struct {
	key   string
	snap  tripwire.Snapshot
	err   error
	asked int64 // UnixNano
}

// ask asks the breakers of keys, one after the other (about 5 µs each),
// without holding the board's lock, then takes their answers in and
// returns the rows by key. A key the registry no longer has is forgotten
// (one unregistered while asked too: see settle). An ErrShutdown is the
// registry's shutdown only if shutDown says so.
func (b *board) ask(keys []string) map[string]Row {
	answers := make([]answer, 0, len(keys))
	down := false
	for _, k := range keys {
		at := time.Now().UnixNano()
		s, err := snapshot(context.Background(), b.reg, k)
		answers = append(answers, answer{key: k, snap: s, err: err, asked: at})
		if errors.Is(err, tripwire.ErrShutdown) && shutDown(b.reg) {
			down = true
			break
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	rows := make(map[string]Row, len(answers))
	for _, a := range answers {
		switch {
		case a.err == nil:
			rows[a.key] = b.apply(a.snap, a.asked, now, true)
		case errors.Is(a.err, tripwire.ErrUnknownKey):
			b.forget(a.key)
		}
	}
	if down {
		b.down = true
	}
	return rows
}

// split parts keys into those to ask and the rows of those asleep at the
// census, which are not asked: a Snapshot would wake them.
func (b *board) split(keys []string) (due []string, asleep map[string]Row) {
	for _, k := range keys {
		if _, marked := b.marks[k]; !marked {
			if i, ok := b.census.find(k); ok && b.census.keys[i].asleep {
				if asleep == nil {
					asleep = map[string]Row{}
				}
				c := b.census.keys[i]
				asleep[k] = Row{Key: k, State: state.Closed, Restarts: int(c.restarts), Asleep: true}
				continue
			}
		}
		due = append(due, k)
	}
	return due, asleep
}
