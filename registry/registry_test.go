package registry_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	tactor "github.com/tripwire-go/tripwire/actor"
	"github.com/tripwire-go/tripwire/registry"
)

func entry(key string) *registry.Entry { return registry.NewEntry(&tactor.Config{Key: key}) }

func TestInsertIsUniqueUnderConcurrency(t *testing.T) {
	for round := range 200 {
		// Given 16 goroutines, each with its own entry for one key
		var reg registry.Registry
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
	var reg registry.Registry
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
	var reg registry.Registry
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
	var reg registry.Registry
	require.Empty(t, reg.Keys())
	require.Zero(t, reg.Len())
	_, ok := reg.Load("k")
	require.False(t, ok)
}

func TestBindingCloseIsIdempotent(t *testing.T) {
	// Given a live binding
	b := registry.NewBinding(nil, nil)
	select {
	case <-b.Done():
		t.Fatal("a new binding is already done")
	default:
	}
	first, later := errors.New("first"), errors.New("later")

	// When Close is called many times at once, the first with a known error
	b.Close(first)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() { b.Close(later) })
	}
	wg.Wait()

	// Then Done is closed and Err is the first error
	<-b.Done()
	require.Same(t, first, b.Err())
}

func TestBindingConcurrentFirstClose(t *testing.T) {
	// Given a live binding and 16 goroutines closing it with their own error
	b := registry.NewBinding(nil, nil)
	errs := make([]error, 16)
	var wg sync.WaitGroup
	for i := range errs {
		errs[i] = errors.New("closer")
		wg.Go(func() { b.Close(errs[i]) })
	}
	// A reader waiting on Done sees the error of whichever Close won
	<-b.Done()
	got := b.Err()
	wg.Wait()

	// Then the error is one of theirs, and it no longer changes
	require.Contains(t, errs, got)
	require.Same(t, got, b.Err())
}

func TestEntryBinding(t *testing.T) {
	// Given an entry with no breaker yet
	e := entry("k")
	require.Nil(t, e.Binding())

	// When it is bound twice
	b1, b2 := registry.NewBinding(nil, nil), registry.NewBinding(nil, nil)
	e.Bind(b1)
	e.Bind(b2)

	// Then the latest binding serves it
	require.Same(t, b2, e.Binding())
}
