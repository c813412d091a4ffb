#!/usr/bin/env bash
# Runs every fuzz target of a PRMKIT_FUZZ build for a bounded time each.
#   scripts/run-fuzzers.sh BUILD_DIR SECONDS [TARGET...]
# Each target starts from its seeds in fuzz/corpus/<target> (read only) and
# grows a working corpus in BUILD_DIR/corpus/<target>; a crash, hang
# (-timeout), memory blow-up (-rss_limit_mb) or sanitizer report stops it
# with the input saved as BUILD_DIR/findings/<target>/crash-* (or timeout-*,
# oom-*), and this script exits 1 after the others have run.
set -uo pipefail
build=${1:?build folder}
seconds=${2:?seconds per target}
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_problem fuzz_moveit fuzz_urdf fuzz_omplapp fuzz_csv fuzz_mesh fuzz_mesh_files
  fuzz_ompl_parameters fuzz_roadmap)
source_dir=$(cd "$(dirname "$0")/.." && pwd)
# Leaks inside third-party libraries are suppressed as in the ASan tests.
export LSAN_OPTIONS="suppressions=$source_dir/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
status=0
for target in "${targets[@]}"; do
  mkdir -p "$build/corpus/$target" "$build/findings/$target"
  echo "run-fuzzers: $target for $seconds s"
  # A target with a dictionary (fuzz/<target>.dict) gets it.
  dictionary=()
  [ -f "$source_dir/fuzz/$target.dict" ] && dictionary=(-dict="$source_dir/fuzz/$target.dict")
  if ! "$build/fuzz/$target" "${dictionary[@]}" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -max_len=65536 \
      -artifact_prefix="$build/findings/$target/" -print_final_stats=1 \
      "$build/corpus/$target" "$source_dir/fuzz/corpus/$target" >"$build/findings/$target/log.txt" 2>&1; then
    echo "run-fuzzers: $target FAILED (see $build/findings/$target/)"
    tail -40 "$build/findings/$target/log.txt"
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/findings/$target/log.txt" | sed "s/^/  $target: /"
  fi
done
exit $status
