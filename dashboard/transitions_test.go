package dashboard

import (
	"context"
	"fmt"
	"testing"
)

func TestTransitionsAreFilteredByPrefixStateAndLimit(t *testing.T) {
	// Given keys forced open and closed again, in turn
	f := serve(t, append(keys("a", 3), keys("b", 1)...))
	for _, k := range []string{"a01", "a02", "b01", "a03"} {
		if err := f.reg.ForceOpen(context.Background(), k); err != nil {
			t.Fatal(err)
		}
		if err := f.reg.ForceClose(context.Background(), k); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "the journal has the transitions", func() bool { return len(f.h.journal.history(filter{limit: historySize})) == 8 })
	for _, tc := range []struct {
		query string
		want  []string // key>to, oldest first
	}{
		{"", []string{"a01>open", "a01>closed", "a02>open", "a02>closed", "b01>open", "b01>closed", "a03>open", "a03>closed"}},
		{"?prefix=a&state=open", []string{"a01>open", "a02>open", "a03>open"}},
		{"?state=open,closed&limit=3", []string{"b01>closed", "a03>open", "a03>closed"}},
		{"?prefix=a&state=open&limit=2", []string{"a02>open", "a03>open"}},
		{"?prefix=b&limit=1000", []string{"b01>open", "b01>closed"}},
		{"?state=half_open", nil},
	} {
		// When the transitions are asked for with the query
		var got []Transition
		f.getJSON(t, "/api/transitions"+tc.query, &got)
		// Then they are the last limit of the matching ones, oldest first
		if fmt.Sprint(arrows(got)) != fmt.Sprint(tc.want) {
			t.Errorf("%q: %v, want %v", tc.query, arrows(got), tc.want)
		}
	}
}

// arrows are transitions as key>to.
func arrows(ts []Transition) []string {
	var out []string
	for _, tr := range ts {
		out = append(out, tr.Key+">"+tr.To.String())
	}
	return out
}
