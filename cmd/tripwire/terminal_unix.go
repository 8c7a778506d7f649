//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// notifyResize relays to c the signal a terminal sends when its size
// changes (SIGWINCH).
func notifyResize(c chan<- os.Signal) { signal.Notify(c, syscall.SIGWINCH) }
