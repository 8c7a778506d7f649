//go:build !race

package regress

// pooledKept is the share of what is put in a sync.Pool that a later Get
// finds, with nothing collected meanwhile.
const pooledKept = 1.0
