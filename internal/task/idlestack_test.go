package task

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// stacks returns an idle stack of n processors' stacks and n*each workers
// with slots in it.
func stacks(n, each int) (*idleStack, []*worker) {
	s := &idleStack{tops: make([]idleTop, n)}
	ws := make([]*worker, n*each)
	for i := range ws {
		ws[i] = &worker{}
		s.join(ws[i])
	}
	return s, ws
}

func TestAJobTakesAWorkerIdleOnAnotherProcessor(t *testing.T) {
	// Given a worker idle on processor 1's stack only
	s, ws := stacks(2, 1)
	s.pushOn(&s.tops[1].top, ws[0])

	// When a job on processor 0 looks for one
	// Then it takes that worker, and there is no other
	require.Same(t, ws[0], s.popNear(0))
	require.Nil(t, s.popNear(0))
	require.True(t, s.empty())
}

func TestAJobTakesTheWorkerIdleLastOnItsOwnProcessorFirst(t *testing.T) {
	s, ws := stacks(2, 2)
	s.pushOn(&s.tops[0].top, ws[0])
	s.pushOn(&s.tops[1].top, ws[1])
	s.pushOn(&s.tops[1].top, ws[2])
	require.Same(t, ws[2], s.popNear(1))
	require.Same(t, ws[1], s.popNear(1))
	require.Same(t, ws[0], s.popNear(1))
}

func TestTakeAllEmptiesEveryProcessorsStack(t *testing.T) {
	s, ws := stacks(3, 2)
	for i, w := range ws {
		s.pushOn(&s.tops[i%3].top, w)
	}
	require.ElementsMatch(t, ws, s.takeAll())
	require.True(t, s.empty())
	require.Nil(t, s.pop())
}

// Workers taken and put back on every processor's stack at once, by
// goroutines on every core, are each held by one goroutine at a time and
// none is lost: a pop that read a stack's top just before the worker there
// moved to another stack must fail its swap.
func TestWorkersMovingBetweenProcessorsStacksAreNeverTakenTwice(t *testing.T) {
	const n, each, movers, rounds = 2, 2, 8, 200000
	s, ws := stacks(n, each)
	for i, w := range ws {
		s.pushOn(&s.tops[i%n].top, w)
	}
	held := make(map[*worker]*atomic.Bool, len(ws))
	for _, w := range ws {
		held[w] = new(atomic.Bool)
	}
	var wg sync.WaitGroup
	for m := range movers {
		wg.Go(func() {
			for r := range rounds {
				w := s.popNear((m + r) % n)
				if w == nil {
					continue
				}
				if !held[w].CompareAndSwap(false, true) {
					t.Errorf("worker %d taken while another goroutine held it", w.slot)
					return
				}
				held[w].Store(false)
				s.pushOn(&s.tops[(m+r+1)%n].top, w)
			}
		})
	}
	wg.Wait()
	require.ElementsMatch(t, ws, s.takeAll())
}
