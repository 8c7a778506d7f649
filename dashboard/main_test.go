package dashboard

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine behind: a board
// that outlived its handler, an event stream its server, a census, a
// browser's reader.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
