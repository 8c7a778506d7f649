package timers

import (
	"slices"
	"sync"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a timer's goroutine outlives the tests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// inbox records what is posted to it.
type inbox struct {
	mu  sync.Mutex
	got []any
}

func (b *inbox) PostUserMessage(msg any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.got = append(b.got, msg)
}

func (b *inbox) messages() []any {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.got)
}

// timers are Timers posting to inboxes.
type timers = Timers[inbox, *inbox]
