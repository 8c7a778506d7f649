package dashboard

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// censusOf is a census of keys, sorted.
func censusOf(keys []string) *census {
	slices.Sort(keys)
	keys = slices.Compact(keys)
	c := &census{keys: make([]censusKey, len(keys))}
	for i, k := range keys {
		c.keys[i].key = k
	}
	return c
}

func TestSpanIsTheKeysWithThePrefix(t *testing.T) {
	// Given censuses of random keys over a small alphabet (so that
	// prefixes share most of their keys)
	r := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "ab/"[r.IntN(3)]
		}
		return string(b)
	}
	for range 200 {
		keys := make([]string, r.IntN(60))
		for i := range keys {
			keys[i] = word(1 + r.IntN(5))
		}
		c := censusOf(keys)
		// Then for every prefix, span is exactly the keys that start with it
		for _, prefix := range []string{"", word(1), word(2), word(3), word(6)} {
			lo, hi := c.span(prefix)
			for i, k := range c.keys {
				if in := i >= lo && i < hi; in != strings.HasPrefix(k.key, prefix) {
					t.Fatalf("span(%q) = [%d, %d) of %v: key %d %q", prefix, lo, hi, c.keys, i, k.key)
				}
			}
		}
	}
}

// BenchmarkSpan: counting the keys of a prefix at a million keys and at a
// thousand costs about the same (two binary searches), for the empty
// prefix (every key) and for one that matches a tenth.
func BenchmarkSpan(b *testing.B) {
	for _, n := range []int{1_000, 1_000_000} {
		keys := make([]string, n)
		for i := range keys {
			keys[i] = fmt.Sprintf("k%07d", i)
		}
		c := censusOf(keys)
		for _, prefix := range []string{"", "k00"} {
			b.Run(fmt.Sprintf("keys=%d/prefix=%q", n, prefix), func(b *testing.B) {
				for b.Loop() {
					c.span(prefix)
				}
			})
		}
	}
}
