// Package load drives calls for the programs that load a registry, the demo
// and the soak: goroutine callers that each call over and over, pausing
// between calls, until they are halted (Callers), and the pause itself
// (Think), which the soak's actor askers take after ErrOpen too. What a
// call is and how its answer is tallied are the program's.
package load
