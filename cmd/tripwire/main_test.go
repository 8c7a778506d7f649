package main

import (
	"testing"

	"go.uber.org/goleak"
)

// The commands start actor systems and registries: each must be gone when
// its command returns.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
