package tripwire

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// maxKeyLen is the longest key, in bytes.
const maxKeyLen = 256

// validateKey refuses a key that is empty, over maxKeyLen bytes, not valid
// UTF-8, or holds an invisible character (see invisible).
func validateKey(key string) error {
	switch {
	case key == "":
		return fmt.Errorf("%w: empty", ErrInvalidKey)
	case len(key) > maxKeyLen:
		return fmt.Errorf("%w: %d bytes, over %d", ErrInvalidKey, len(key), maxKeyLen)
	case !utf8.ValidString(key):
		return fmt.Errorf("%w: not valid UTF-8", ErrInvalidKey)
	}
	for _, r := range key {
		if invisible(r) {
			return fmt.Errorf("%w: invisible character %U", ErrInvalidKey, r)
		}
	}
	return nil
}

// invisible reports whether r would make a key read like another in a log
// or on a dashboard: a control or format character (zero-width, U+202E,
// soft hyphen, BOM), a line or paragraph separator.
func invisible(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}
