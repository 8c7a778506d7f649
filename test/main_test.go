// Package test holds scenario tests of the whole system, written against the
// public root API only. Most run in fake time (testing/synctest), so a test
// that waits "30 seconds" takes microseconds and every instant is exact.
package test

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
