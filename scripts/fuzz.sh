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
#
# A target is Fuzz/NAME/main.swift (it defines LLVMFuzzerTestOneInput) plus, optionally:
#   Fuzz/NAME/modules   the store's modules it imports, in dependency order (default: CheckoutKit);
#                       each is built once per run, instrumented, with -enable-testing
#   Fuzz/NAME/sources   single source files compiled into the target itself
#   Fuzz/NAME/dict      a libFuzzer dictionary: tokens worth trying (JSON keys, escapes)
set -euo pipefail
# A failed invariant is reported by libFuzzer with its reproducer; the Swift runtime's own crash
# backtracer would only hold the process up.
export SWIFT_BACKTRACE=enable=no
cd "$(dirname "$0")/.."

seconds="${1:-600}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(find Fuzz -mindepth 1 -maxdepth 1 -type d ! -name Support -printf '%f\n' | sort)
fi
modules_dir=".build/fuzz/modules"
rm -rf "$modules_dir"
mkdir -p "$modules_dir"

# Builds Sources/MODULE as an instrumented static library, once per run.
build_module() {
    local module="$1"
    [ -f "$modules_dir/lib$module.a" ] && return 0
    echo "== module $module"
    local files
    mapfile -t files < <(find "Sources/$module" -name '*.swift' | sort)
    swiftc -sanitize=fuzzer,address -parse-as-library -O -enable-testing -package-name onlinestore \
        -module-name "$module" \
        -I "$modules_dir" -I Sources/CMicroHTTPD \
        -emit-module -emit-module-path "$modules_dir/$module.swiftmodule" \
        -emit-library -static -o "$modules_dir/lib$module.a" "${files[@]}" 2>&1 | grep -v "Cannot export local symbol" || true
    [ -f "$modules_dir/lib$module.a" ] || { echo "fuzz: module $module did not build" >&2; exit 1; }
}

for name in "${targets[@]}"; do
    out=".build/fuzz/$name"
    mkdir -p "$out/corpus" "Fuzz/$name/corpus"
    modules=(CheckoutKit)
    [ -f "Fuzz/$name/modules" ] && read -r -a modules < "Fuzz/$name/modules"
    sources=()
    [ -f "Fuzz/$name/sources" ] && mapfile -t sources < "Fuzz/$name/sources"
    links=()
    for module in "${modules[@]}"; do
        build_module "$module"
        # A static library comes before the ones it uses.
        links=("-l$module" "${links[@]}")
        [ "$module" = HTTPServer ] && links+=(-lmicrohttpd)
    done
    echo "== $name: building"
    rm -f "$out/fuzz"
    swiftc -sanitize=fuzzer,address -parse-as-library -O -package-name onlinestore -module-name "Fuzz$name" \
        -I "$modules_dir" -I Sources/CMicroHTTPD -L "$modules_dir" \
        Fuzz/Support/*.swift "${sources[@]}" "Fuzz/$name/main.swift" "${links[@]}" -o "$out/fuzz" 2>&1 | grep -v "Cannot export local symbol" || true
    [ -x "$out/fuzz" ] || { echo "fuzz: $name did not build" >&2; exit 1; }
    options=()
    [ -f "Fuzz/$name/dict" ] && options+=("-dict=Fuzz/$name/dict")
    echo "== $name: $seconds s"
    "$out/fuzz" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$out/" "${options[@]}" \
        "$out/corpus" "Fuzz/$name/corpus" 2>&1 | grep -E "^(Done|stat::number_of_executed_units|==|SUMMARY|.*ERROR)" || true
    if compgen -G "$out/crash-*" >/dev/null || compgen -G "$out/leak-*" >/dev/null \
        || compgen -G "$out/oom-*" >/dev/null || compgen -G "$out/timeout-*" >/dev/null; then
        echo "fuzz: $name found a failure; reproducers in $out" >&2
        exit 1
    fi
    if [ "${FUZZ_KEEP:-0}" = 1 ]; then
        "$out/fuzz" -merge=1 "Fuzz/$name/corpus" "$out/corpus" 2>&1 | grep -E "^MERGE-OUTER: [0-9]+ new files" || true
    fi
done
echo "== fuzz: no crash, leak or broken invariant"
