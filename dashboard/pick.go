package dashboard

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tripwire-go/tripwire/state"
)

// rank sorts the marked keys worst first, then by key, if a mark changed
// since the last sort.
func (b *board) rank() {
	if b.ranked != nil {
		return
	}
	b.ranked = make([]string, 0, len(b.marks))
	for k := range b.marks {
		b.ranked = append(b.ranked, k)
	}
	slices.SortFunc(b.ranked, func(x, y string) int {
		if c := cmp.Compare(b.marks[y].severity(), b.marks[x].severity()); c != 0 {
			return c
		}
		return strings.Compare(x, y)
	})
}

// pick returns the keys f shows, worst first then by key, and how many
// keys f matches. It costs the marked keys plus f's limit (and a binary
// search of the census), not the registry's size: the keys not marked are
// healthy, and closed, and come from the census in key order.
func (b *board) pick(f filter) (keys []string, matched int) {
	b.rank()
	marked := 0
	for _, k := range b.ranked {
		if !strings.HasPrefix(k, f.prefix) {
			continue
		}
		marked++
		if m := b.marks[k]; f.admits(m.state) {
			matched++
			if len(keys) < f.limit {
				keys = append(keys, k)
			}
		}
	}
	if !f.admits(state.Closed) {
		return keys, matched
	}
	lo, hi := b.census.span(f.prefix)
	late := b.lateWith(f.prefix)
	gone := 0
	for k := range b.gone {
		if strings.HasPrefix(k, f.prefix) {
			gone++
		}
	}
	matched += max(hi-lo+len(late)-gone-marked, 0)
	// The healthy keys: the census's and the late ones, merged in key order.
	i, j := lo, 0
	for len(keys) < f.limit && (i < hi || j < len(late)) {
		var k string
		if j == len(late) || (i < hi && b.census.keys[i].key < late[j]) {
			k = b.census.keys[i].key
			i++
		} else {
			k = late[j]
			j++
		}
		if _, bad := b.marks[k]; bad {
			continue
		}
		if _, g := b.gone[k]; g {
			continue
		}
		keys = append(keys, k)
	}
	return keys, matched
}

// lateWith returns the late keys with prefix, sorted.
func (b *board) lateWith(prefix string) []string {
	var out []string
	for k := range b.late {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
