//go:build !tripwire_sendhook

package sendhook

// On reports whether this build calls the hook.
const On = false

// Set does nothing in a build without the tag tripwire_sendhook.
func Set(func(msg any)) {}

// Sent does nothing in a build without the tag tripwire_sendhook.
func Sent(any) {}
