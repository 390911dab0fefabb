#!/usr/bin/env bash
# Fuzzes the parsers that turn outside bytes into values, with libFuzzer and AddressSanitizer
# (swiftc -sanitize=fuzzer,address). Each target under Fuzz/ asserts its own invariants, not only
# "no crash"; its corpus (Fuzz/NAME/corpus) is kept in the repository and grows with each run.
#
#   scripts/fuzz.sh [SECONDS] [NAME...]    every target (or the NAMEs) for SECONDS each (default 600)
#
# New inputs go to .build/fuzz/NAME/corpus; with FUZZ_KEEP=1 (make fuzz) the ones that reach new
# code are merged into Fuzz/NAME/corpus afterwards, so short runs leave the work tree alone.
#
# A crash, a leak or a failed invariant stops the run with the reproducer in .build/fuzz/NAME/.
set -euo pipefail
# A failed invariant is reported by libFuzzer with its reproducer; the Swift runtime's own crash
# backtracer would only hold the process up.
export SWIFT_BACKTRACE=enable=no
cd "$(dirname "$0")/.."

seconds="${1:-600}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(find Fuzz -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
fi
mapfile -t checkout_kit < <(find Sources/CheckoutKit -name '*.swift' | sort)

for name in "${targets[@]}"; do
    out=".build/fuzz/$name"
    mkdir -p "$out/corpus" "Fuzz/$name/corpus"
    echo "== $name: building"
    swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name "Fuzz$name" \
        "${checkout_kit[@]}" "Fuzz/$name/main.swift" -o "$out/fuzz" 2>&1 | grep -v "Cannot export local symbol" || true
    echo "== $name: $seconds s"
    "$out/fuzz" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$out/" \
        "$out/corpus" "Fuzz/$name/corpus" 2>&1 | grep -E "^(Done|stat::number_of_executed_units|==|SUMMARY|.*ERROR)" || true
    if compgen -G "$out/crash-*" >/dev/null || compgen -G "$out/leak-*" >/dev/null; then
        echo "fuzz: $name found a failure; reproducers in $out" >&2
        exit 1
    fi
    if [ "${FUZZ_KEEP:-0}" = 1 ]; then
        "$out/fuzz" -merge=1 "Fuzz/$name/corpus" "$out/corpus" 2>&1 | grep -E "^MERGE-OUTER: [0-9]+ new files" || true
    fi
done
echo "== fuzz: no crash, leak or broken invariant"
