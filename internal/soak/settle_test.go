package soak

import (
	"runtime"
	"testing"
	"testing/synctest"
	"time"
)

func TestSettleWaitsForGoroutinesToExit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a goroutine that exits after a second
		before := runtime.NumGoroutine()
		go time.Sleep(time.Second)
		// When settle waits for the count to come back down
		start := time.Now()
		n := settle(before)
		// Then it came back once the goroutine exited
		if n > before || time.Since(start) < time.Second {
			t.Fatalf("settle = %d (before %d) after %v", n, before, time.Since(start))
		}
	})
}

func TestSettleGivesUpAfterExitWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a goroutine that does not exit
		before := runtime.NumGoroutine()
		quit := make(chan struct{})
		go func() { <-quit }()
		// When settle waits for the count to come back down
		start := time.Now()
		n := settle(before)
		close(quit)
		// Then it gives up after exitWait and counts the goroutine
		if n != before+1 || time.Since(start) < exitWait || time.Since(start) > exitWait+time.Second {
			t.Fatalf("settle = %d (before %d) after %v", n, before, time.Since(start))
		}
	})
}
