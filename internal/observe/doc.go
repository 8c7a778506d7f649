// Package observe turns what breakers do into signals: ordered transition
// events for subscribers and the actor system's EventStream, OpenTelemetry
// metrics and spans. Breakers only hand transitions to a Hub; everything else
// runs on the hub's own goroutine, so a slow listener never slows a breaker.
package observe
