//go:build tripwire_sendhook

package sendhook

import "testing"

func TestSentCallsTheHookSetLast(t *testing.T) {
	// Given no hook, then a hook, then another
	Sent("unseen") // no hook: nothing happens
	var first, second []any
	Set(func(msg any) { first = append(first, msg) })
	Sent(1)
	Set(func(msg any) { second = append(second, msg) })
	Sent(2)
	// When the hook is removed
	Set(nil)
	Sent(3)
	// Then each send reached the hook set at the time, and none the removed one
	if !On || len(first) != 1 || first[0] != 1 || len(second) != 1 || second[0] != 2 {
		t.Fatalf("On %v, first hook saw %v, second %v", On, first, second)
	}
}
