package remote

import (
	"os"

	"go.uber.org/zap"
)

// debugLog logs the home node to stderr when DEBUGLOG is set.
func debugLog() *zap.Logger {
	if os.Getenv("DEBUGLOG") == "" {
		return nil
	}
	l, _ := zap.NewDevelopment()
	return l
}
