package main

import (
	"slices"
	"testing"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/state"
)

func TestWorstFirst(t *testing.T) {
	// Given keys in every state, some failing more than others
	row := func(key string, st state.State, failures int, failed, rejected int64) demo.Row {
		r := demo.Row{}
		r.Key, r.State, r.Failures, r.Failed, r.Rejected = key, st, failures, failed, rejected
		return r
	}
	rows := []demo.Row{
		row("a-closed-quiet", state.Closed, 0, 0, 0),
		row("b-half", state.HalfOpen, 0, 5, 0),
		row("c-closed-failing", state.Closed, 2, 0, 0),
		row("d-open", state.Open, 3, 10, 100),
		row("e-closed-rejected", state.Closed, 0, 0, 40),
		row("f-open-worse", state.Open, 4, 10, 100),
		row("g-open-same", state.Open, 3, 10, 100),
	}
	// When they are ordered worst first
	var got []string
	for _, r := range worstFirst(rows) {
		got = append(got, r.Key)
	}
	// Then open circuits come first, then half-open, then closed; within a state the most
	// consecutive failures, then the most calls failed or rejected, then by key
	want := []string{"f-open-worse", "d-open", "g-open-same", "b-half", "c-closed-failing", "e-closed-rejected", "a-closed-quiet"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// And the rows given are left in their order
	if rows[0].Key != "a-closed-quiet" {
		t.Error("worstFirst sorted its argument")
	}
}
