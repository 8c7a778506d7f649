//go:build race

package grain

// manyKeys is how many keys TestFailoverWithManyKeys registers: under the
// race detector registering 10,000 keys alone takes 10 s (each Register
// copies the registry's key table), so fewer.
const manyKeys = 2_000
