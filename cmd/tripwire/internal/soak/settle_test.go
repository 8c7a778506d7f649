package soak

import (
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// The tests count their own goroutines, not the process's: a goroutine that
// an earlier test left to exit in real time would move runtime.NumGoroutine
// during the bubble's fake seconds.

func TestSettleWaitsForGoroutinesToExit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a goroutine that exits after a second
		var live atomic.Int64
		live.Add(1)
		go func() { defer live.Add(-1); time.Sleep(time.Second) }()
		// When settle waits for the count to come back down
		start := time.Now()
		n := settle(0, func() int { return int(live.Load()) })
		// Then it came back once the goroutine exited
		if n != 0 || time.Since(start) < time.Second {
			t.Fatalf("settle = %d (before 0) after %v", n, time.Since(start))
		}
	})
}

func TestSettleGivesUpAfterExitWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a goroutine that does not exit
		var live atomic.Int64
		quit := make(chan struct{})
		live.Add(1)
		go func() { defer live.Add(-1); <-quit }()
		// When settle waits for the count to come back down
		start := time.Now()
		n := settle(0, func() int { return int(live.Load()) })
		close(quit)
		// Then it gives up after exitWait and counts the goroutine
		if n != 1 || time.Since(start) < exitWait || time.Since(start) > exitWait+time.Second {
			t.Fatalf("settle = %d (before 0) after %v", n, time.Since(start))
		}
	})
}
