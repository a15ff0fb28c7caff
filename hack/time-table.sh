#!/usr/bin/env bash
# How long each build step and each test class of this `mvn verify` took, slowest first, so that a
# regression shows the day it lands.
# Usage: time-table.sh start   (the root build's first step: marks the start)
#        time-table.sh report  (after the last module's tests)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
MARK=$ROOT/target/time-table.start
BUILD_TIMES=${KOORD4J_CACHE:-$HOME/.cache/koord4j/cluster}/build-times.tsv
TOP=40

start() {
  mkdir -p "$(dirname "$MARK")"
  date -u +%FT%TZ >"$MARK"
}

# The cluster's builds since the mark: "<seconds>\t<set> <version>".
build_steps() {
  [[ -f $BUILD_TIMES ]] || return 0
  awk -F'\t' -v since="$(<"$MARK")" '$1 >= since { printf "%d\t%s %s\n", $4, $2, $3 }' "$BUILD_TIMES"
}

# Every test class whose report this run wrote: "<seconds>\t<module> <class> (<tests> tests)".
test_classes() {
  local report module
  while IFS= read -r report; do
    module=${report#"$ROOT"/}; module=${module%%/*}
    sed -n 's/.*<testsuite [^>]*name="\([^"]*\)"[^>]*time="\([^"]*\)"[^>]*tests="\([^"]*\)".*/\2\t\1 (\3 tests)/p' "$report" \
      | head -n 1 | sed "s/\t/\t$module /"
  done < <(find "$ROOT" -path '*/target/*-reports/TEST-*.xml' -newer "$MARK" 2>/dev/null)
}

table() {
  sort -t$'\t' -k1,1 -g -r | head -n "$TOP" | awk -F'\t' '{ printf "  %8.1f s  %s\n", $1, $2 }'
}

report() {
  [[ -f $MARK ]] || { echo "no start mark ($MARK): run the whole build (mvn verify) from the root"; return 0; }
  local tests
  tests=$(test_classes)
  echo "== time table of the build started $(<"$MARK")"
  echo "-- cluster builds (of this run)"
  build_steps | table
  echo "-- test classes, slowest $TOP of $(grep -c . <<<"$tests" || true); all of them: $(awk -F'\t' '{ s += $1 } END { printf "%.0f", s }' <<<"$tests") s"
  table <<<"$tests"
}

case ${1:-} in
  start) start ;;
  report) report ;;
  *) echo "usage: time-table.sh start|report" >&2; exit 2 ;;
esac
