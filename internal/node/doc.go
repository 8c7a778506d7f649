// Package node serves an actor to other processes over protoactor's remote:
// an echo that answers each request with the request itself after a
// latency. `tripwire node` and `tripwire demo -remote` use it, and so do the
// remote tests, which need a dependency on another node but not the demo.
package node
