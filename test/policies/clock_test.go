package policies

import (
	"testing/synctest"
	"time"
)

// advance lets d of fake time pass, and then lets every timer that went off
// at that instant finish its work, so that a call made next does not tie
// with it.
func advance(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}
