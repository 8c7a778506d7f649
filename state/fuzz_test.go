package state

import (
	"testing"
	"time"
)

// FuzzStep decodes data into settings and an event sequence and checks the
// invariants of checkStep after every step. data[0] and data[1] pick the
// threshold, incarnation and timeout; then every 3 bytes are one event:
// kind, gen choice and time advance.
func FuzzStep(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{2, 1, 3, 0, 0, 3, 0, 0, 3, 0, 0, 5, 0, 10}) // 3 failures, timer
	// trip, half-open on the live timer, probe, probe fails, stale timer, live timer, probe succeeds
	f.Add([]byte{0, 2, 3, 0, 1, 5, 2, 30, 1, 0, 0, 3, 0, 2, 5, 1, 0, 5, 2, 30, 1, 0, 0, 2, 0, 1})
	// trip with threshold 2; stale, future and foreign outcomes; ignored probe; two admits
	f.Add([]byte{0x11, 0, 1, 0, 0, 3, 0, 0, 3, 0, 0, 2, 3, 0, 2, 4, 0, 2, 5, 0, 5, 0, 9, 1, 0, 0, 4, 0, 0, 1, 0, 0, 1, 0, 0})
	// threshold 1: trip, half-open, then current-gen outcomes with no probe in flight
	f.Add([]byte{0, 0, 3, 0, 0, 5, 0, 10, 2, 0, 0, 3, 0, 0, 4, 0, 0, 1, 0, 0, 4, 0, 0, 3, 0, 0})
	f.Add([]byte{0, 0, 0, 0, 0, 6, 0, 0, 255, 255, 255, 3, 6, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		s := Settings{Threshold: 1 + int(data[0]%4), OpenTimeout: time.Duration(1+data[1]%8) * time.Second}
		inc := uint64(data[0] >> 4)
		c, now := New(s, inc), t0
		var fx []Effect
		var lastForward, lastTimer Gen
		inFlight := 0 // half-open probes forwarded and not yet ended
		for data = data[2:]; len(data) >= 3; data = data[3:] {
			now = now.Add(time.Duration(data[2]) * 100 * time.Millisecond)
			ev := Event{Kind: EventKind(data[0] % 7)} // 0 and 6 are not kinds
			switch g := c.Gen; data[1] % 6 {
			case 0:
				ev.Gen = g
			case 1:
				ev.Gen = lastForward
			case 2:
				ev.Gen = lastTimer
			case 3:
				ev.Gen = Gen{inc, g.Seq - min(g.Seq, 1+uint64(data[1]/6))}
			case 4:
				ev.Gen = Gen{inc, g.Seq + 1}
			case 5:
				ev.Gen = Gen{inc + 1, g.Seq}
			}
			before := c
			c, fx = Step(c, ev, now, fx[:0])
			if err := checkStep(before, ev, now, c, fx); err != nil {
				t.Fatalf("%+v at %v: %v\n%+v -> %+v\n%+v", ev, now.Sub(t0), err, before, c, fx)
			}
			switch {
			case c.Gen != before.Gen:
				inFlight = 0
			case len(fx) == 1 && fx[0].Kind == Forward && c.State == HalfOpen:
				inFlight++
			case before.Probing && !c.Probing:
				inFlight--
			}
			if inFlight > 1 || (inFlight == 1) != c.Probing {
				t.Fatalf("%d probes in flight, probing=%v", inFlight, c.Probing)
			}
			for _, e := range fx {
				switch e.Kind {
				case Forward:
					lastForward = e.Gen
				case StartTimer:
					lastTimer = e.Gen
				}
			}
		}
	})
}
