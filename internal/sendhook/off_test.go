//go:build !tripwire_sendhook

package sendhook

import "testing"

func TestWithoutTheTagNothingIsCalled(t *testing.T) {
	// Given a hook set in a build without the tag
	called := false
	Set(func(any) { called = true })
	// When an answer is sent
	Sent(1)
	// Then the hook is not called, and On says it is off
	if On || called {
		t.Fatalf("On %v, hook called %v", On, called)
	}
}
