GO ?= go

.PHONY: test bench cover vet demo

# The test command CI runs (.ci/run).
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 9m ./...

# Benchmarks with their peers in one run; see BENCHMARKS.md.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./test/bench/

cover:
	$(GO) test -count=1 -coverprofile=coverage.out ./...
	$(GO) tool cover -func=coverage.out | tail -1

demo:
	$(GO) run ./cmd/tripwire demo
