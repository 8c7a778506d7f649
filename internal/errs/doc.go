// Package errs holds Tripwire's sentinel errors so that every package of the
// module can return them; the root package re-exports each one.
package errs
