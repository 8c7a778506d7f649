package main

import (
	"io"
	"strings"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// transitionLogger prints the breakers' own log lines (transitions,
// restarts) to w, and drops the actor runtime's chatter.
func transitionLogger(w io.Writer) *zap.Logger {
	enc := zap.NewDevelopmentEncoderConfig()
	enc.TimeKey = ""
	enc.CallerKey = ""
	enc.EncodeLevel = zapcore.CapitalLevelEncoder
	core := zapcore.NewCore(zapcore.NewConsoleEncoder(enc), zapcore.AddSync(w), zapcore.DebugLevel)
	return zap.New(namedOnly{Core: core, prefixes: []string{"breaker", "supervisor"}})
}

// namedOnly passes only entries whose logger name starts with a prefix.
type namedOnly struct {
	zapcore.Core
	prefixes []string
}

func (n namedOnly) With(fields []zapcore.Field) zapcore.Core {
	return namedOnly{Core: n.Core.With(fields), prefixes: n.prefixes}
}

func (n namedOnly) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	for _, p := range n.prefixes {
		if strings.HasPrefix(e.LoggerName, p) {
			return n.Core.Check(e, ce)
		}
	}
	return ce
}
