#!/usr/bin/env bash
# Checks the launcher's freshness rule (./toolscout) in a temporary clone of this repository's HEAD (commit first:
# uncommitted changes are not in the clone); about 10 minutes, three builds:
#  1. ./toolscout builds once; a full `mvn verify` (what ./run-tests builds, less the tests: every module, generated
#     sources under target/) leaves nothing for the next ./toolscout to build;
#  2. an older commit's sources checked out under this launcher (argument 1, default HEAD~150): ./toolscout cleans
#     and builds, and afterwards no module's target/classes holds a resource its sources no longer have and
#     target/lib holds exactly the jars the launcher's jar names.
# Usage: scripts/check-launcher.sh [OLDER_COMMIT]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
older="${1:-HEAD~150}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/clone"
cd "$work/clone"
older="$(git rev-parse --verify "$older^{commit}")"
fail() { echo "check-launcher: FAIL: $*" >&2; exit 1; }

echo "check-launcher: first start of $(git rev-parse --short HEAD) (builds)" >&2
./toolscout --version >/dev/null 2>"$work/1.err" || { cat "$work/1.err" >&2; fail "first start"; }
grep -q "toolscout: building" "$work/1.err" || fail "the first start did not build"

echo "check-launcher: mvn verify -DskipTests over every module, then a start" >&2
mvn -B -q verify -DskipTests >/dev/null 2>&1 || fail "mvn verify"
./toolscout --version >/dev/null 2>"$work/2.err" || { cat "$work/2.err" >&2; fail "start after mvn verify"; }
if grep "toolscout: building" "$work/2.err" >&2; then
  fail "the start after mvn verify built again"
fi
echo "check-launcher: ok, no build after mvn verify" >&2

# the older commit's sources, this launcher (the older launcher may not have the rule being checked)
cp toolscout find-java.sh "$work/"
git checkout -q "$older"
cp "$work/toolscout" "$work/find-java.sh" .
stale() {
  local m r n=0
  for m in toolscout-*/; do
    m="${m%/}"
    # the launcher builds the product only: toolscout-bench's target/ (JMH's generated resources) is not its own
    [ "$m" != toolscout-bench ] && [ -d "$m/target/classes" ] || continue
    while IFS= read -r r; do
      [ -f "$m/src/main/resources/$r" ] || { echo "$m: $r"; n=$((n + 1)); }
    done < <(cd "$m/target/classes" && find . -type f ! -name '*.class' | sed 's|^\./||')
  done
  return 0
}
echo "check-launcher: sources of $(git rev-parse --short HEAD); resources in target/classes they do not have: $(stale | wc -l)" >&2
./toolscout --version >/dev/null 2>"$work/3.err" || { cat "$work/3.err" >&2; fail "start on the older sources"; }
grep -q "toolscout: building (the sources changed since the last build" "$work/3.err" \
  || { cat "$work/3.err" >&2; fail "the start on the older sources did not clean and build"; }
left="$(stale)"
[ -z "$left" ] || { echo "$left" >&2; fail "stale resources left in target/classes"; }
listed="$(unzip -p toolscout-server/target/toolscout.jar META-INF/MANIFEST.MF | tr -d '\r' \
  | sed -n '/^Class-Path:/,/^[A-Z]/p' | sed 's/^Class-Path://; /^[A-Z]/d; s/^ //' | tr -d '\n' | tr ' ' '\n' \
  | sed 's|^lib/||' | grep . | LC_ALL=C sort)"
present="$(ls toolscout-server/target/lib | grep '\.jar$' | LC_ALL=C sort)"
[ "$listed" = "$present" ] || { diff <(echo "$listed") <(echo "$present") >&2 || true; fail "target/lib differs from the jar's Class-Path"; }
./toolscout select "Schedule a meeting for tomorrow at 2pm" --data-dir "$work/data" >/dev/null 2>"$work/4.err" \
  || { cat "$work/4.err" >&2; fail "select on the older build"; }
echo "check-launcher: ok, the older sources were cleaned and built: no stale resource, target/lib as the jar names it" >&2
