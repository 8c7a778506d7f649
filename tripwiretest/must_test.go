package tripwiretest_test

import "testing"

// must fails the test at once on a setter's error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}
