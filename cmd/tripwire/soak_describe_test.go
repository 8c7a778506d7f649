package main

import (
	"bytes"
	"strings"
	"testing"
)

// soakHeaderCase is a soak command line and what its header says, and does
// not say.
type soakHeaderCase struct {
	args      []string
	want, not []string
}

func TestSoakHeaderGivesTheShareOfCallsThatFail(t *testing.T) {
	// A call that hangs is released to succeed: only the others can fail.
	checkSoakHeaders(t, []soakHeaderCase{
		{nil, []string{"; hang 1%, fail 10% of the calls that do not hang (9.9% of calls), crash every 5ms,"}, nil},
		{[]string{"-fail-rate", "0.7", "-hang-rate", "0.7"},
			[]string{"; hang 70%, fail 70% of the calls that do not hang (21% of calls), "},
			[]string{"fail 70%,"}},
		{[]string{"-fail-rate", "0.3", "-hang-rate", "1"},
			[]string{"; hang 100%, fail 30% of the calls that do not hang (0% of calls), "}, nil},
		{[]string{"-fail-rate", "0.07", "-hang-rate", "0"}, []string{"; fail 7%, hang 0%, "}, nil},
		{[]string{"-fail-rate", "0", "-hang-rate", "0.5"}, []string{"; fail 0%, hang 50%, "}, nil},
	})
}

func TestSoakHeaderSaysWhichTargetsThereAre(t *testing.T) {
	// Fewer keys than -actor-every: no actor target, and no actor to kill.
	checkSoakHeaders(t, []soakHeaderCase{
		{nil, []string{
			" on 16 keys (2 actor targets: every 8th key) ",
			", k0000 (a function target) and k0007 (an actor target) die for the middle third; ",
		}, nil},
		{[]string{"-keys", "4", "-actor-every", "100"}, []string{
			" on 4 keys (function targets, no actor: fewer keys than -actor-every 100) ",
			", k0000 (a function target) dies for the middle third; ",
		}, []string{"an actor target", "100th"}},
		{[]string{"-keys", "1"}, []string{
			" on 1 key (a function target, no actor: fewer keys than -actor-every 8) ",
			", k0000 (a function target) dies for the middle third; ",
		}, []string{"1 keys", "an actor target"}},
		{[]string{"-keys", "1", "-actor-every", "1"}, []string{
			" on 1 key (an actor target) ",
			", k0000 (an actor target) dies for the middle third; ",
		}, []string{"a function target"}},
		{[]string{"-keys", "3", "-actor-every", "1"}, []string{" on 3 keys (actor targets) ", ", k0000 (an actor target) dies "}, nil},
		{[]string{"-keys", "9", "-actor-every", "8"}, []string{" on 9 keys (1 actor target: every 8th key) ", " and k0007 (an actor target) die "}, nil},
		{[]string{"-actor-every", "0"}, []string{" on 16 keys (function targets) ", ", k0000 (a function target) dies "}, nil},
		{[]string{"-kill-targets=false"}, []string{", burst every 100ms; seed 0"}, []string{" die"}},
	})
}

func TestSoakHeaderSaysWhatARunIsTooShortFor(t *testing.T) {
	// Panics and bursts come a period into the run, and then every period.
	checkSoakHeaders(t, []soakHeaderCase{
		{[]string{"-duration", "1s", "-panic-every", "2s", "-burst-every", "500ms"}, []string{
			", no panic (-panic-every 2s is longer than the run), burst every 500ms",
		}, []string{"panic every"}},
		{[]string{"-duration", "1s", "-burst-every", "1s"}, []string{", burst every 1s"}, nil},
	})
}

func checkSoakHeaders(t *testing.T, cases []soakHeaderCase) {
	t.Helper()
	for _, c := range cases {
		// Given soak's flags, When the run is described
		cfg, err := soakFlags(c.args, &bytes.Buffer{})
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		got := describeSoak(cfg)
		// Then the header says what will run, not what the flags alone suggest
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%v: header %q does not say %q", c.args, got, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(got, n) {
				t.Errorf("%v: header %q says %q", c.args, got, n)
			}
		}
	}
}
