#!/usr/bin/env bash
# Celer's test suite, in one of two sizes:
#   whole (./celer test, what CI runs): every test on the default JDK and on a JDK 25, in two lanes that run at
#     once, each JDK in a build directory of its own. The suites that drive outside programs or whole benchmarks
#     (tags in ONCE below, the fuzzers' fuzzing runs, the jcstress gate) run once, on one lane or the other.
#   quick (./celer test --quick): core, HTTP and WebSocket on the default JDK, the fuzzers only replaying what
#     they found before, no outside peers: the inner loop while working.
# Both end with the ten slowest test classes, so that the next slowdown is seen. Other arguments go to Maven.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# Tags of the tests that run once: the Autobahn cases and the browser (minutes, against kosoku and Chromium),
# the HTTP peers (curl, ab, wrk, h2load, nginx, python's server), the benchmark harness runs and the network
# faults (Toxiproxy, network namespaces: one lane at a time keeps their timing honest). The fuzz tests
# (tag jazzer) always run in executions of their own, fuzzing (celer.fuzz=1) on one lane only. Sections 12.1 and
# 12.2 of the Autobahn cases (autobahn-12, compression) run on the default JDK's lane, the rest on JDK 25's: the
# native transports' suites make that lane the longer.
ONCE_EXAMPLES=autobahn,browser
ONCE_OTHERS=peers,bench,faults,autobahn-12

quick=0
maven_args=()
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    *) maven_args+=("$arg") ;;
  esac
done

LOGS="$ROOT/target/test-logs"
mkdir -p "$LOGS"
TIMES="$LOGS/times.txt"
: > "$TIMES"

java_label() { "$1/bin/java" -version 2>&1 | head -n1; }

default_home() {
  local java; java="$(readlink -f "$(command -v java)")"
  dirname "$(dirname "$java")"
}

# Reads one attribute of a report's <testsuite> element.
attribute() { sed -E "s/.* $1=\"([^\"]*)\".*/\\1/" <<< "$2" | tr -d ','; }

# Appends each test class of the reports written under a build directory since a file's time to TIMES:
# "seconds class lane tests failures errors skipped". The invoker's reports are the consumer project's builds.
record_times() {
  local suffix="$1" label="$2" since="$3" report line
  while IFS= read -r report; do
    line="$(head -c 4000 "$report" | tr '\n' ' ' | grep -o '<testsuite [^>]*>' | head -n1 || true)"
    [ -n "$line" ] || continue
    echo "$(attribute time "$line") $(attribute name "$line") $label $(attribute tests "$line")" \
      "$(attribute failures "$line") $(attribute errors "$line") $(attribute skipped "$line")" >> "$TIMES"
  done < <(find . \( -path "*/target$suffix/surefire-reports/TEST-*.xml" \
    -o -path "*/target$suffix/failsafe-reports/TEST-*.xml" \
    -o -path "*/target$suffix/invoker-reports/TEST-*.xml" \) -newer "$since")
}

# One lane: mvn verify with one JDK in one build directory, its output in a log of its own.
# Writes "status seconds label" to the lane's status file when done.
lane() {
  local name="$1" home="$2" suffix="$3"; shift 3
  local label; label="$(java_label "$home")"
  local start; start=$(date +%s)
  local status=0
  # Reports older than this run (another lane's, an earlier run's) are not counted.
  touch "$LOGS/$name.start"
  JAVA_HOME="$home" PATH="$home/bin:$PATH" mvn -B -Dstyle.color=never -Dceler.targetSuffix="$suffix" "$@" verify \
    > "$LOGS/$name.log" 2>&1 || status=$?
  record_times "$suffix" "$name" "$LOGS/$name.start"
  echo "$status $(( $(date +%s) - start )) $label" > "$LOGS/$name.status"
}

report_lane() {
  local name="$1" status seconds label
  read -r status seconds label < "$LOGS/$name.status"
  echo "[celer] ---- lane $name ($label): the last lines of $LOGS/$name.log ----"
  # Maven's summary and every failure: the results of each test class, then the reactor summary.
  grep -E 'Tests run:|FAIL|ERROR|BUILD|Reactor Summary|SUCCESS \[|Total time' "$LOGS/$name.log" \
    | grep -v -E 'Tests run:.*Failures: 0, Errors: 0.* -- in ' || true
  echo "[celer] lane $name ($label): $([ "$status" = 0 ] && echo passed || echo "FAILED (exit $status)") in $seconds s"
  return "$status"
}

# The ten slowest test classes, then the counts of every lane's tests as one closing line.
slowest() {
  echo "[celer] the ten slowest test classes (seconds, class, lane):"
  # awk, not head, takes the first ten: head would close the pipe early, and pipefail would end the script.
  sort -rn "$TIMES" | awk 'NR <= 10 {printf "  %8.1f  %s  %s\n", $1, $2, $3}'
  awk '{ tests += $4; failed += $5 + $6; skipped += $7 }
       END { printf "tests: %d passed, %d failed, %d skipped\n", tests - failed - skipped, failed, skipped }' "$TIMES"
}

start=$(date +%s)
home17="$(default_home)"
if [ "$quick" = 1 ]; then
  echo "[celer] quick tests: core, HTTP and WebSocket on $(java_label "$home17")"
  status=0
  lane quick "$home17" "" -pl celer-core,celer-http,celer-websocket -Dceler.fuzz=0 \
    -Dceler.excludedGroups="jazzer,$ONCE_OTHERS" ${maven_args[@]+"${maven_args[@]}"} || true
  report_lane quick || status=$?
  slowest
  echo "[celer] quick tests finished in $(( $(date +%s) - start )) s"
  exit "$status"
fi

# Extra JDK: CELER_EXTRA_JDK (a JAVA_HOME), else a JDK 25 installed under /usr/lib/jvm.
home25="${CELER_EXTRA_JDK:-$(ls -d /usr/lib/jvm/*25* 2>/dev/null | head -n1 || true)}"
if [ -z "$home25" ] || [ ! -x "$home25/bin/java" ]; then
  echo "[celer] no JDK 25 found under /usr/lib/jvm: the whole suite runs once, on the default JDK"
  status=0
  lane main "$home17" "" ${maven_args[@]+"${maven_args[@]}"} || true
  report_lane main || status=$?
  slowest
  exit "$status"
fi

# The two lanes share the machine's cores; the once-only suites are split between them so that both end at
# about the same time: the default JDK fuzzes, runs the HTTP peers, the benchmark harness, jcstress and the
# Autobahn cases of sections 12.1 and 12.2; JDK 25 runs the other Autobahn cases and the browser.
echo "[celer] whole test suite: lane jdk17 on $(java_label "$home17"), lane jdk25 on $(java_label "$home25")"
echo "[celer] logs: $LOGS/jdk17.log and $LOGS/jdk25.log"
lane jdk17 "$home17" "" -Dceler.excludedGroups="jazzer,$ONCE_EXAMPLES" ${maven_args[@]+"${maven_args[@]}"} &
pid17=$!
lane jdk25 "$home25" "/jdk25" -Dceler.fuzz=0 -DskipITs -Dceler.excludedGroups="jazzer,$ONCE_OTHERS" \
  ${maven_args[@]+"${maven_args[@]}"} &
pid25=$!
wait "$pid17" || true
wait "$pid25" || true

status=0
report_lane jdk17 || status=1
report_lane jdk25 || status=1
slowest
echo "[celer] whole test suite finished in $(( $(date +%s) - start )) s: $([ "$status" = 0 ] && echo passed || echo FAILED)"
exit "$status"
