package tripwire

import "github.com/tripwire-go/tripwire/state"

func circuitSettings(s Settings) state.Settings {
	return state.Settings{Threshold: s.Threshold, OpenTimeout: s.OpenTimeout}
}
