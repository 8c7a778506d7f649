package state

import (
	"fmt"
	"testing"
	"time"
)

// fuzzSettings decodes the settings header of FuzzStep. data[0] picks the
// threshold (low 2 bits) and incarnation (high 4 bits); data[1] the open
// timeout (low 3 bits). If data[1] has its high bit set, 4 more bytes pick a
// policy: p[0] the window (consecutive, count, time) and its shape, p[1] its
// MinCalls and FailureRate, p[2] SlowCall and the backoff, p[3] the probes
// and the jitter. It returns the settings, the incarnation and the rest of
// data.
func fuzzSettings(data []byte) (Settings, uint64, []byte) {
	s := Settings{Threshold: 1 + int(data[0]%4), OpenTimeout: time.Duration(1+data[1]%8) * time.Second}
	inc := uint64(data[0] >> 4)
	if data[1]&0x80 == 0 || len(data) < 6 {
		return s, inc, data[2:]
	}
	p := data[2:6]
	minCalls, rate := int(p[1]%6), float64(1+p[1]/6%10)/10
	switch p[0] % 3 {
	case 1:
		s.Window = Window{Size: 1 + int(p[0]/3), MinCalls: minCalls, FailureRate: rate}
	case 2:
		s.Window = Window{Period: time.Duration(1+p[0]/3%16) * 500 * time.Millisecond, Buckets: 1 + int(p[0]/48),
			MinCalls: minCalls, FailureRate: rate}
	}
	if p[2]&1 != 0 {
		s.SlowCall = time.Second
	}
	if p[2]&2 != 0 {
		s.Backoff = Backoff{
			Multiplier: 1 + float64(p[2]>>2%4)/2,               // 1, 1.5, 2, 2.5
			Max:        s.OpenTimeout * time.Duration(p[2]>>4), // 0 = no cap
			Jitter:     float64(p[3]>>2) / 63,                  // 0..1
		}
	}
	s.HalfOpenProbes = int(p[3] % 4) // 0 means 1
	return s, inc, data[6:]
}

// FuzzStep decodes data into settings and an event sequence and checks the
// invariants of checkStep after every step. After the settings header (see
// fuzzSettings) every 3 bytes are one event: kind (and, for Failed, the high
// bit marks a deadline), gen choice and time advance (which also gives the
// call duration and the jitter draw).
func FuzzStep(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{2, 1, 3, 0, 0, 3, 0, 0, 3, 0, 0, 5, 0, 10}) // 3 failures, timer
	// trip, half-open on the live timer, probe, probe fails, stale timer, live timer, probe succeeds
	f.Add([]byte{0, 2, 3, 0, 1, 5, 2, 30, 1, 0, 0, 3, 0, 2, 5, 1, 0, 5, 2, 30, 1, 0, 0, 2, 0, 1})
	// trip with threshold 2; stale, future and foreign outcomes; ignored probe; two admits
	f.Add([]byte{0x11, 0, 1, 0, 0, 3, 0, 0, 3, 0, 0, 2, 3, 0, 2, 4, 0, 2, 5, 0, 5, 0, 9, 1, 0, 0, 4, 0, 0, 1, 0, 0, 1, 0, 0})
	// threshold 1: trip, half-open, then current-gen outcomes with no probe in flight
	f.Add([]byte{0, 0, 3, 0, 0, 5, 0, 10, 2, 0, 0, 3, 0, 0, 4, 0, 0, 1, 0, 0, 4, 0, 0, 3, 0, 0})
	// force open, timer ignored, force close, failures past threshold, reset, target down, kinds 0 and 10
	f.Add([]byte{0, 0, 6, 0, 0, 5, 0, 0, 7, 0, 0, 3, 0, 0, 3, 0, 0, 8, 0, 0, 9, 0, 3, 0, 0, 0, 10, 0, 0, 255, 255, 255})
	// count window of 4, min 2, rate 0.5, slow calls, backoff x2 capped, 3 probes with jitter
	f.Add([]byte{0, 0x81, 10, 2 + 6*4, 0x27, 0xfe, 1, 0, 0, 2, 0, 20, 1, 0, 0, 3, 0, 0, 1, 0, 0, 3, 0, 0,
		5, 0, 30, 1, 0, 0, 1, 0, 0, 1, 0, 0, 3, 0, 0, 5, 0, 30, 1, 0, 0, 2, 0, 5, 9, 0, 9})
	// time window of 1s x 2 buckets, min 1, rate 0.1: failures, expiry, failure, probe deadline
	f.Add([]byte{0, 0x82, 5, 1, 2, 3, 1, 0, 0, 3, 0, 1, 2, 0, 30, 3, 0, 0, 5, 0, 30, 1, 0, 0, 131, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		s, inc, data := fuzzSettings(data)
		c, now := newCircuit(s, inc), t0
		var fx []Effect
		var lastForward, lastTimer Gen
		inFlight := 0 // half-open probes forwarded and not yet ended
		for ; len(data) >= 3; data = data[3:] {
			now = now.Add(time.Duration(data[2]) * 100 * time.Millisecond)
			ev := Event{Kind: EventKind(data[0] % 11), // 0 and 10 are not kinds
				Duration: time.Duration(data[2]) * 10 * time.Millisecond,
				Rand:     float64(data[2]) / 256}
			ev.Timeout = ev.Kind == Failed && data[0] >= 128
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
			before := c.Clone()
			c, fx = applyTo(c, ev, now, fx[:0])
			if err := checkStep(before, ev, now, c, fx); err != nil {
				t.Fatalf("%+v at %v: %v\n%+v\n%s -> %s\n%+v", ev, now.Sub(t0), err, s, short(before), short(c), fx)
			}
			switch {
			case c.Gen != before.Gen:
				inFlight = 0
			case len(fx) == 1 && fx[0].Kind == Forward && c.State == HalfOpen:
				inFlight++
			case c.Probes < before.Probes:
				inFlight--
			}
			if inFlight != c.Probes {
				t.Fatalf("%d probes in flight, Probes=%d", inFlight, c.Probes)
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

// short describes a circuit without its window, for failure messages.
func short(c Circuit) string {
	return fmt.Sprintf("{%s failures=%d gen=%+v openedAt=%v retryAt=%v probes=%d passed=%d reopens=%d forced=%d}",
		c.State, c.Failures, c.Gen, c.OpenedAt.Sub(t0), c.RetryAt.Sub(t0), c.Probes, c.Passed, c.Reopens, c.Forced)
}
