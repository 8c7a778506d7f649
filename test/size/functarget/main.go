// A program with one function target behind a Tripwire breaker.
package main

import (
	"context"
	"fmt"

	"github.com/tripwire-go/tripwire"
)

func main() {
	reg, err := tripwire.Start()
	if err != nil {
		panic(err)
	}
	defer reg.Shutdown(context.Background())
	_ = reg.Register(context.Background(), "k", tripwire.Func(func(context.Context, any) (any, error) { return "ok", nil }), tripwire.Settings{})
	fmt.Println(reg.Call(context.Background(), "k", "m"))
}
