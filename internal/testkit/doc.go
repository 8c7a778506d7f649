// Package testkit holds the fixtures that the test packages share, so that
// each is written once: an actor system whose goroutines end (system.go), a
// fake-time bubble with a system and a registry in it (bubble.go), calls run
// on a goroutine of their own (call.go), checks of a key's circuit
// (circuit.go) and an actor that calls Request (asker.go). Scripted targets
// are tripwiretest's: a tripwiretest.Op message scripts one call.
//
// It imports the root package, so only external test packages
// (package tripwire_test, task_test, ...) and the packages under test/ can
// use it; the internal tests of packages the root imports cannot.
package testkit
