#!/usr/bin/env bash
# The whole test suite: every module's unit, system and example tests, on the default JDK and then on
# each newer JDK found on the machine (Celer targets Java 17 and must pass on 25 as well).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

run_suite() {
  local label="$1"; shift
  local start; start=$(date +%s)
  echo "[celer] test suite on $label"
  mvn -B -Dstyle.color=never "$@" verify
  echo "[celer] test suite on $label finished in $(( $(date +%s) - start )) s"
}

run_suite "$(java -version 2>&1 | head -n1)" "$@"

# Extra JDKs: CELER_EXTRA_JDKS (colon-separated JAVA_HOMEs), else any JDK 25 installed under /usr/lib/jvm.
extra="${CELER_EXTRA_JDKS:-$(ls -d /usr/lib/jvm/*25* 2>/dev/null | tr '\n' ':' || true)}"
IFS=':' read -r -a homes <<< "$extra"
ran_extra=0
for home in "${homes[@]}"; do
  [ -x "$home/bin/java" ] || continue
  # The Autobahn cases and the browser self-test speak to peers outside the JVM and take minutes: they run
  # once, on the first JDK; every other test runs again here.
  JAVA_HOME="$home" PATH="$home/bin:$PATH" run_suite "$("$home/bin/java" -version 2>&1 | head -n1)" \
    -DexcludedGroups=autobahn,browser "$@"
  ran_extra=1
done
[ "$ran_extra" = 1 ] || echo "[celer] no JDK 25 found under /usr/lib/jvm: suite ran on the default JDK only"
