# OnlineStore — the two commands are `make run` and `make test`; `make bench` measures.
SWIFT ?= swift
LINT_PATHS := Sources Tests benchmarks Fuzz Package.swift

.PHONY: run test bench chaos fuzz soak sanitize deps lint build format clean cluster cluster-stop

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

# Installs what is missing, builds, and starts the store on http://127.0.0.1:8080 with an SQLite
# database under .store/ (created and seeded on first run). Ctrl-C stops it cleanly.
run: deps
	$(SWIFT) build -c release --product store
	.build/release/store serve --host 127.0.0.1 --port 8080 --database sqlite:.store/store.sqlite

# Release-mode benchmarks (pricing, database transactions, the back office's lists at shop scale,
# catalog reads against nginx, the checkout path under wrk, on SQLite and PostgreSQL); figures go
# to docs/BENCHMARKS.md.
bench:
	@scripts/bench.sh

# The full chaos runs: ≥ 2,000 checkouts from 100 naive shoppers while the server is killed with SIGKILL
# at random moments and restarted; 2,000 orders refunded and cancelled the same way, on SQLite and on
# a throwaway PostgreSQL server; and ≥ 2,000 checkouts through the cluster (PostgreSQL, 3 release
# servers, nginx) while random servers are killed (make test runs short versions). Figures go to
# docs/RELIABILITY.md.
chaos: deps
	@scripts/chaos.sh

# PostgreSQL, 3 stores and nginx in front of them on loopback; prints the one URL (scripts/cluster.sh).
cluster: deps
	$(SWIFT) build -c release --product store
	@scripts/cluster.sh start $${SERVERS:-3}

cluster-stop:
	@scripts/cluster.sh stop

clean:
	rm -rf .build

# libFuzzer with AddressSanitizer on the parsers of outside input (Fuzz/), 10 minutes a target;
# make test runs each for 20 s.
fuzz: deps
	FUZZ_KEEP=1 scripts/fuzz.sh 600

# 10 minutes of mixed load at 256 connections, then the same with half the connections dropped
# mid-request; RSS, descriptors, threads and p99 over time (docs/RELIABILITY.md, docs/soak.png).
soak:
	@scripts/soak.sh

# The whole suite under ThreadSanitizer; the HTTP and store end-to-end suites under AddressSanitizer.
sanitize:
	@scripts/sanitize.sh
