//go:build !unix

package main

import "os"

// notifyResize relays nothing: this system sends no signal when a terminal
// changes size. The live table reads the size before every frame, so it
// follows a new size at the next one.
func notifyResize(chan<- os.Signal) {}
