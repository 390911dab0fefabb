# OnlineStore — the two commands are `make run` and `make test`; `make bench` measures.
SWIFT ?= swift
LINT_PATHS := Sources Tests benchmarks Package.swift

.PHONY: run test bench deps lint build format clean

deps:
	@scripts/install-deps.sh

lint:
	$(SWIFT) format lint --strict -r $(LINT_PATHS)

format:
	$(SWIFT) format -i -r $(LINT_PATHS)

build: deps
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors

# Installs what is missing, then runs every test: lint, a warning-free build, the whole suite on
# SQLite and on a throwaway PostgreSQL server (scripts/test.sh).
test:
	@scripts/test.sh

# Installs what is missing, then starts the store. (The server arrives with the server issue;
# until then this builds everything and says so.)
run: deps
	$(SWIFT) build -c release
	@echo "The store server is not built yet: this build contains the domain library (CheckoutKit)"
	@echo "and its wire types (StoreAPI). Run 'make test' to check them, 'make bench' to measure."

# Release-mode benchmarks (pricing, database transactions); figures go to docs/BENCHMARKS.md.
bench:
	@scripts/bench.sh

clean:
	rm -rf .build
