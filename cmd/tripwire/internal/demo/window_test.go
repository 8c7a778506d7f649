package demo

import (
	"testing"
	"time"
)

func TestWindowDown(t *testing.T) {
	start := time.Unix(1000, 0)
	at := func(d time.Duration) time.Time { return start.Add(d) }
	s := time.Second
	cases := []struct {
		name string
		w    window
		down []time.Duration // moments it is down
		up   []time.Duration // moments it is not
	}{
		{"once", window{start: start, downAt: s, upAt: 3 * s},
			[]time.Duration{s, 2 * s, 3*s - 1},
			[]time.Duration{0, s - 1, 3 * s, 100 * s}},
		{"staggered", window{start: start, offset: s / 2, downAt: s, upAt: 3 * s},
			[]time.Duration{3 * s / 2, 7*s/2 - 1},
			[]time.Duration{s, 3*s/2 - 1, 7 * s / 2}},
		{"cycling", window{start: start, downAt: s, upAt: 3 * s, cycle: 5 * s},
			[]time.Duration{s, 6 * s, 8*s - 1, 11 * s},
			[]time.Duration{0, 3 * s, 5 * s, 8 * s, 11*s - 1}},
		{"cycling from zero", window{start: start, downAt: 0, upAt: 2 * s, cycle: 5 * s},
			[]time.Duration{0, 5 * s, 7*s - 1},
			[]time.Duration{2 * s, 5*s - 1}},
		{"before a staggered cycle", window{start: start, offset: 4 * s, downAt: 0, upAt: 2 * s, cycle: 5 * s},
			[]time.Duration{4 * s, 9 * s},
			[]time.Duration{0, 4*s - 1, 6 * s}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Given the window; When asked at each moment; Then it is down exactly inside it
			for _, d := range c.down {
				if !c.w.down(at(d)) {
					t.Errorf("not down at %v", d)
				}
			}
			for _, d := range c.up {
				if c.w.down(at(d)) {
					t.Errorf("down at %v", d)
				}
			}
		})
	}
}

func TestWindowNext(t *testing.T) {
	start := time.Unix(1000, 0)
	s := time.Second
	const never = -1
	cases := []struct {
		name      string
		w         window
		now, want time.Duration // want: never if there is no next edge
	}{
		{"before going down", window{start: start, downAt: s, upAt: 3 * s}, 0, s},
		{"at going down: the next edge is strictly later", window{start: start, downAt: s, upAt: 3 * s}, s, 3 * s},
		{"while down", window{start: start, downAt: s, upAt: 3 * s}, 2 * s, 3 * s},
		{"after coming up, no cycle", window{start: start, downAt: s, upAt: 3 * s}, 3 * s, never},
		{"before the stagger", window{start: start, offset: s / 2, downAt: s, upAt: 3 * s}, s / 10, 3 * s / 2},
		{"staggered, while down", window{start: start, offset: s / 2, downAt: s, upAt: 3 * s}, 2 * s, 7 * s / 2},
		{"cycling: after coming up, the next cycle", window{start: start, downAt: s, upAt: 3 * s, cycle: 5 * s}, 3 * s, 6 * s},
		{"cycling: second cycle, while down", window{start: start, downAt: s, upAt: 3 * s, cycle: 5 * s}, 6 * s, 8 * s},
		{"cycling: at a cycle's start", window{start: start, downAt: s, upAt: 3 * s, cycle: 5 * s}, 5 * s, 6 * s},
		{"cycling from zero", window{start: start, downAt: 0, upAt: 2 * s, cycle: 5 * s}, 2 * s, 5 * s},
		{"cycling before the stagger", window{start: start, offset: 4 * s, downAt: 0, upAt: 2 * s, cycle: 5 * s}, s, 4 * s},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Given the window; When asked for the next edge after now
			got, ok := c.w.next(start.Add(c.now))
			// Then it is the first change of down after now, if there is one
			if c.want == never {
				if ok {
					t.Fatalf("next edge at %v, want none", got.Sub(start))
				}
				return
			}
			if !ok || !got.Equal(start.Add(c.want)) {
				t.Fatalf("next = %v, %v; want %v", got.Sub(start), ok, c.want)
			}
			if c.w.down(got) == c.w.down(start.Add(c.now)) {
				t.Errorf("down does not change at the edge %v", c.want)
			}
		})
	}
}
