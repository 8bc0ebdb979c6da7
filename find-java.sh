# Sourced by ./toolscout and ./run-tests: sets JAVA_HOME to a JDK 21 or newer.
# Order: $JAVA_HOME, `java` on PATH, then the usual JDK folders (newest first).
_ts_java_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | head -n1 | cut -d. -f1
}
_ts_find_jdk() {
  local c v
  local candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  for c in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/jdk* "$HOME"/.sdkman/candidates/java/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$c" ] && candidates+=("$c")
  done
  local best="" bestv=0
  for c in "${candidates[@]}"; do
    [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    v=$(_ts_java_major "$c")
    [ -n "$v" ] || continue
    if [ "$v" -ge 21 ]; then
      # the first acceptable candidate in priority order wins (JAVA_HOME, PATH, then the newest folder)
      if [ -z "$best" ]; then best="$c"; bestv=$v; fi
      if [ "$c" != "${JAVA_HOME:-}" ] && [ "$v" -gt "$bestv" ] && [ "$best" != "${JAVA_HOME:-}" ] && [ "$best" != "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null)")")")" ]; then best="$c"; bestv=$v; fi
    fi
  done
  [ -n "$best" ] || return 1
  echo "$best"
}
if ! TOOLSCOUT_JDK=$(_ts_find_jdk); then
  echo "toolscout: no JDK 21 or newer found (looked at JAVA_HOME, java on PATH, /usr/lib/jvm and /opt). Install one, e.g. 'apt-get install openjdk-21-jdk', or set JAVA_HOME." >&2
  # sourced (the launchers, which stop on it under set -e, or a user's shell as docs/JAVA.md shows): return, so a
  # user's own shell is not closed; run as a script: exit
  return 1 2>/dev/null || exit 1
fi
export JAVA_HOME="$TOOLSCOUT_JDK"
export PATH="$JAVA_HOME/bin:$PATH"
