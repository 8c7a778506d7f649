package etcdprovider

import (
	"errors"
	"testing"
	"time"
)

func TestBadConfigIsRefused(t *testing.T) {
	for _, c := range []Config{
		{},
		{Endpoints: []string{""}},
		{Endpoints: []string{"127.0.0.1:2379"}, Timeout: -time.Second},
		{Endpoints: []string{"127.0.0.1:2379"}, DialTimeout: -time.Second},
	} {
		// When a provider is made from a bad config, Then it is refused
		if _, err := New(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("New(%+v) = %v, want ErrInvalidConfig", c, err)
		}
	}
}

func TestZeroFieldsAreTheDefaults(t *testing.T) {
	c, err := Config{Endpoints: []string{"127.0.0.1:2379"}}.withDefaults()
	if err != nil || c.BaseKey != DefaultBaseKey || c.DialTimeout != DefaultDialTimeout || c.Timeout != DefaultTimeout || c.Logger == nil {
		t.Fatalf("withDefaults = %+v, %v", c, err)
	}
}
