package state

import "github.com/tripwire-go/tripwire/internal/errs"

// ErrInvalidSettings is the error of settings a circuit cannot take: every
// error Validate returns matches it with errors.Is. It is
// tripwire.ErrInvalidSettings.
var ErrInvalidSettings = errs.ErrInvalidSettings
