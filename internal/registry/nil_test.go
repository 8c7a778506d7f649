package registry_test

import (
	"testing"

	"github.com/tripwire-go/tripwire/internal/registry"
)

// A nil entry is not inserted, and a nil func ranges over nothing: neither
// panics, and the table is unchanged.
func TestTheTableRefusesNil(t *testing.T) {
	var tab registry.Table
	if tab.Insert(nil) {
		t.Fatal("Insert(nil) reported it added an entry")
	}
	if tab.Len() != 0 {
		t.Fatalf("Len after Insert(nil) = %d", tab.Len())
	}
	tab.Range(nil)
}
