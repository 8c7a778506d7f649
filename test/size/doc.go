// Package size holds two programs whose stripped binaries BENCHMARKS.md
// compares (make sizes): functarget, one function target behind a Tripwire
// breaker, and protohello, protoactor's hello world that spawns and asks
// one actor. Its test checks that a program with function targets only
// links none of protoactor's remote and cluster and no gRPC: those come
// with the packages that need them (grain, remoting, etcdprovider).
package size
