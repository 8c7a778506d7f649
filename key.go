package tripwire

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// MaxKeyLen is the longest key, in bytes.
const MaxKeyLen = 256

func validateKey(key string) error {
	switch {
	case key == "":
		return fmt.Errorf("%w: empty", ErrInvalidKey)
	case len(key) > MaxKeyLen:
		return fmt.Errorf("%w: %d bytes, over %d", ErrInvalidKey, len(key), MaxKeyLen)
	case !utf8.ValidString(key):
		return fmt.Errorf("%w: not valid UTF-8", ErrInvalidKey)
	}
	for _, r := range key {
		if unicode.IsControl(r) {
			return fmt.Errorf("%w: control character %U", ErrInvalidKey, r)
		}
	}
	return nil
}
