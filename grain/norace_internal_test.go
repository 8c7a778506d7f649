//go:build !race

package grain

// manyKeys is how many keys TestFailoverWithManyKeys registers.
const manyKeys = 10_000
