package registry_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/registry"
)

func entry(key string) *registry.Entry {
	return registry.NewEntry(key, tactor.Callee{}, &tactor.Rules{}, &tactor.Shared{})
}

func TestInsertIsUniqueUnderConcurrency(t *testing.T) {
	for round := range 200 {
		// Given 16 goroutines, each with its own entry for one key
		var reg registry.Table
		const n = 16
		entries := make([]*registry.Entry, n)
		for i := range entries {
			entries[i] = entry("hot")
		}
		won := make([]bool, n)
		gate := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				<-gate
				won[i] = reg.Insert(entries[i])
			})
		}

		// When they insert at once
		close(gate)
		wg.Wait()

		// Then exactly one wins, and its entry is the one stored
		winner := slices.Index(won, true)
		require.NotEqual(t, -1, winner, "round %d: no Insert won", round)
		require.Equal(t, 1, countTrue(won), "round %d: more than one Insert won", round)
		got, ok := reg.Load("hot")
		require.True(t, ok)
		require.Same(t, entries[winner], got, "round %d", round)
		require.Equal(t, 1, reg.Len())
	}
}

func TestConcurrentInsertsOfDistinctKeysAreAllKept(t *testing.T) {
	// Given 64 goroutines, each inserting and deleting its own keys
	var reg registry.Table
	const n = 64
	var wg sync.WaitGroup
	gate := make(chan struct{})
	want := make([]string, n)
	for i := range n {
		want[i] = fmt.Sprintf("k%02d", i)
		wg.Go(func() {
			<-gate
			for j := range 20 {
				tmp := fmt.Sprintf("%s-tmp%d", want[i], j)
				assert.True(t, reg.Insert(entry(tmp)))
				_, ok := reg.Delete(tmp)
				assert.True(t, ok)
			}
			assert.True(t, reg.Insert(entry(want[i])))
		})
	}

	// When they all run at once
	close(gate)
	wg.Wait()

	// Then no insert or delete was lost
	require.Equal(t, want, reg.Keys())
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func TestKeysAreSorted(t *testing.T) {
	// Given keys inserted in random order
	want := []string{"", "A", "B", "a", "a/b", "b", "é", "鍵"}
	var reg registry.Table
	for _, i := range rand.Perm(len(want)) {
		require.True(t, reg.Insert(entry(want[i])))
	}

	// Then Keys lists them sorted, and after a Delete without it
	require.Equal(t, want, reg.Keys())
	e, ok := reg.Delete("a")
	require.True(t, ok)
	require.Equal(t, "a", e.Key)
	require.Equal(t, slices.Delete(slices.Clone(want), 3, 4), reg.Keys())
	_, ok = reg.Delete("a")
	require.False(t, ok)
	require.Equal(t, len(want)-1, reg.Len())
}

func TestEmptyRegistry(t *testing.T) {
	var reg registry.Table
	require.Empty(t, reg.Keys())
	require.Zero(t, reg.Len())
	_, ok := reg.Load("k")
	require.False(t, ok)
}
