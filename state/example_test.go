package state

import (
	"fmt"
	"time"
)

func ExampleCircuit_Apply() {
	c := New(&Settings{Threshold: 3, OpenTimeout: 5 * time.Second}, 1)
	now := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	var fx []Effect
	show := func() {
		for _, e := range fx {
			switch e.Kind {
			case Forward:
				fmt.Printf("  forward (gen %d)\n", e.Gen.Seq)
			case Reject:
				fmt.Printf("  reject (gen %d)\n", e.Gen.Seq)
			case StartTimer:
				fmt.Printf("  start timer %v (gen %d)\n", e.After, e.Gen.Seq)
			case Moved:
				fmt.Printf("  %s -> %s (gen %d, %s)\n", e.From, e.To, e.Gen.Seq, e.Reason)
			}
		}
	}

	for i := 1; i <= 3; i++ {
		fx = c.Apply(Event{Kind: Admit}, now, fx[:0])
		call := fx[0].Gen
		fx = c.Apply(Event{Kind: Failed, Gen: call}, now, fx[:0])
		fmt.Printf("failure %d: %s, %d failures\n", i, c.State, c.Failures)
		show()
	}
	timer := fx[len(fx)-1].Gen

	fx = c.Apply(Event{Kind: Admit}, now.Add(time.Second), fx[:0])
	fmt.Println("admit while open:")
	show()

	now = now.Add(5 * time.Second)
	fx = c.Apply(Event{Kind: TimerFired, Gen: timer}, now, fx[:0])
	fmt.Printf("timer fired: %s, retry was due at %s\n", c.State, c.RetryAt.Format(time.TimeOnly))
	show()

	fx = c.Apply(Event{Kind: Admit}, now, fx[:0])
	fmt.Println("probe:")
	show()
	fx = c.Apply(Event{Kind: Admit}, now, fx[:0])
	fmt.Println("second call while probing:")
	show()
	// Output:
	// failure 1: closed, 1 failures
	// failure 2: closed, 2 failures
	// failure 3: open, 3 failures
	//   closed -> open (gen 1, threshold)
	//   start timer 5s (gen 1)
	// admit while open:
	//   reject (gen 1)
	// timer fired: half_open, retry was due at 12:00:05
	//   open -> half_open (gen 2, open_timeout)
	// probe:
	//   forward (gen 2)
	// second call while probing:
	//   reject (gen 2)
}
