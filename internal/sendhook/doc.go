// Package sendhook tells a test when Tripwire sent each answer. Built with
// the tag tripwire_sendhook, Tripwire calls Sent with a call's message just
// before it hands that call's answer to its caller (the call's channel, or
// a Reply sent to the requesting actor), and Sent calls the func given to
// Set. The soak (internal/soak) uses it to tell an answer Tripwire sent late
// from one it sent on time to a caller that then waited in the Go
// scheduler's run queue.
//
// Without the tag On is false, Set and Sent do nothing, and the call sites
// (guarded by On) compile to nothing: a program pays nothing for the hook.
package sendhook
