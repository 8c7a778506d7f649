//go:build race

package regress

// pooledKept is the share of what is put in a sync.Pool that a later Get
// finds, with nothing collected meanwhile: the race detector drops a
// quarter of the puts.
const pooledKept = 0.75
