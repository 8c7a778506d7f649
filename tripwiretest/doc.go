// Package tripwiretest injects faults into Tripwire's breakers and targets,
// for your own resilience tests.
//
// Crash makes a key's breaker panic and returns once a fresh breaker serves
// the key, closed with zero failures: the way to check that callers keep
// getting their answers while a breaker restarts under them.
//
// A Script decides the fate of every call made to the targets built from it:
// succeed, fail (FailNext, FailRate), wait (Latency), hang until released
// (Hang, HangRate, Release), panic (PanicNext) or die (Die). The same script
// drives a function target (Script.Func, Script.Wrap) and an actor target
// (Script.Props, Script.Spawn), so one test can flip a dependency from healthy
// to failing to dead and back while its callers keep calling. Counts tells
// what the script did; Running and Peak how many calls its function targets
// run now and at most.
//
// An Op, sent as a call's message, scripts that one call: answer after a
// delay, fail, panic, hang until the call's context ends, stick ignoring it,
// wait at a gate, or answer a given value or error. Tests that decide each
// call's fate where they make it use Ops; tests that change a dependency's
// health over time use the script's setters. Both work on one target.
//
// CrashEvery crashes random breakers of a registry (with Crash) at a steady
// rate until it is stopped, to check that callers keep getting exactly one
// answer while breakers restart under them.
//
// Faults are decided in arrival order and the random ones come from a seeded
// generator (Seed), so a test that makes its calls in a fixed order sees the
// same faults on every run. Everything here is safe for concurrent use and
// works in fake time (testing/synctest).
package tripwiretest
