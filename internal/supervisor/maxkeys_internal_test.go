package supervisor

import (
	"testing"

	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire/internal/registry"
)

// A negative bound is no bound, as 0 is: taken as given, every new key
// would have been over it.
func TestANegativeMaxKeysIsNoBound(t *testing.T) {
	var keys registry.Table
	s := New(&keys, zap.NewNop())
	defer s.Close()
	s.SetMaxKeys(-1)
	if s.maxKeys != 0 {
		t.Fatalf("SetMaxKeys(-1) left a bound of %d", s.maxKeys)
	}
}
