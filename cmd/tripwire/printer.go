package main

import (
	"io"
	"strings"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// warningLogger prints to w the library's warnings and errors that are not
// transitions — a breaker restarted, lost or respawned, a subscriber falling
// behind — and drops the rest: the breakers' own announcements of their
// transitions (a command shows those through Subscribe) and the actor
// runtime's chatter.
func warningLogger(w io.Writer) *zap.Logger {
	enc := zap.NewDevelopmentEncoderConfig()
	enc.TimeKey = ""
	enc.CallerKey = ""
	enc.EncodeLevel = zapcore.CapitalLevelEncoder
	core := zapcore.NewCore(zapcore.NewConsoleEncoder(enc), zapcore.Lock(zapcore.AddSync(w)), zapcore.WarnLevel)
	return zap.New(namedOnly{Core: core, prefixes: []string{"supervisor", "events", "remoting"}})
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
