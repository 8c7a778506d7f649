package tripwire_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// Settings read from a configuration file can be checked at start-up,
// before any key is made with them.
func ExampleSettings_Validate() {
	s := tripwire.Settings{OpenTimeout: 30 * time.Second, Window: state.Window{Size: 20, MinCalls: 50}}
	err := s.Validate()
	fmt.Println(errors.Is(err, tripwire.ErrInvalidSettings))
	fmt.Println(err)
	// Output:
	// true
	// tripwire: invalid settings: Window.MinCalls 50 is over its Size 20: it could never trip
}
