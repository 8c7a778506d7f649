package tripwire_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/tripwire-go/tripwire"
)

// Settings read from a configuration file can be checked at start-up,
// before any key is made with them.
func ExampleSettings_Validate() {
	s := tripwire.Settings{OpenTimeout: 30 * time.Second, Window: tripwire.Window{Size: 20, MinCalls: 50}}
	err := s.Validate()
	fmt.Println(errors.Is(err, tripwire.ErrInvalidSettings))
	fmt.Println(err)
	// Output:
	// true
	// tripwire: invalid settings: Window.MinCalls 50 is over its Size 20: it could never trip
}
