package regress

import "time"

// sleepUntil sleeps until the instant t of fake time.
func sleepUntil(t time.Time) { time.Sleep(time.Until(t)) }
