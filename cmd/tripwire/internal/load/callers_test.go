package load_test

import (
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/load"
)

// callLog records when each caller called.
type callLog struct {
	mu sync.Mutex
	at [][]time.Duration
}

func (l *callLog) add(i int, d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.at[i] = append(l.at[i], d)
}

func TestCallersCallAtOnceThenAfterEachPause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given two callers, the i-th pausing (i+1)·10 ms between calls
		start := time.Now()
		l := &callLog{at: make([][]time.Duration, 2)}
		c := load.Start(2, func(i int) time.Duration {
			l.add(i, time.Since(start))
			return time.Duration(i+1) * 10 * time.Millisecond
		})
		// When they are halted at 45 ms
		time.Sleep(45 * time.Millisecond)
		c.Halt()
		c.Wait()
		// Then each called at once and after every pause, and returned at the halt
		ms := time.Millisecond
		if want := []time.Duration{0, 10 * ms, 20 * ms, 30 * ms, 40 * ms}; !slices.Equal(l.at[0], want) {
			t.Errorf("caller 0 called at %v, want %v", l.at[0], want)
		}
		if want := []time.Duration{0, 20 * ms, 40 * ms}; !slices.Equal(l.at[1], want) {
			t.Errorf("caller 1 called at %v, want %v", l.at[1], want)
		}
		if time.Since(start) != 45*ms || len(c.Running()) != 0 || len(c.Returned()) != 2 {
			t.Errorf("returned at +%v: running %v, returned %v", time.Since(start), c.Running(), c.Returned())
		}
	})
}

func TestHaltLetsACallInFlightEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given three callers, of which caller 1 is in a call that takes an hour
		start := time.Now()
		var calls [3]int
		c := load.Start(3, func(i int) time.Duration {
			calls[i]++
			if i == 1 {
				time.Sleep(time.Hour)
			}
			return time.Millisecond
		})
		synctest.Wait()
		// When they are halted
		c.Halt()
		c.Halt() // twice is fine
		// Then the others return, and caller 1 is still running a minute later
		if c.WaitFor(time.Minute) {
			t.Fatalf("every caller returned with a call in flight")
		}
		if r := c.Running(); !slices.Equal(r, []int{1}) {
			t.Fatalf("running %v, want [1]", r)
		}
		// and once its call ends it returns, last, without calling again
		if !c.WaitFor(time.Hour) || time.Since(start) != time.Hour {
			t.Fatalf("caller 1 not back at +%v", time.Since(start))
		}
		if r := c.Returned(); len(r) != 3 || r[2] != 1 || calls[1] != 1 {
			t.Fatalf("returned %v, caller 1 called %d times", r, calls[1])
		}
	})
}
