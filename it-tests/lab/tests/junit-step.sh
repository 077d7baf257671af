# junit-step.sh: sourced by the guest-side suites (lab-suite.sh, twohost-suite.sh). Defines
#   junit_step NAME REPORTS JAVA TIMEOUT CPDIR [JVM ARGS...] -- [CONSOLE LAUNCHER ARGS...]
# which runs JUnit's console launcher on CPDIR's class path with the given JVM and launcher
# arguments, the console output in REPORTS/NAME-console.txt ("junit" -> junit-console.txt), the XML
# in REPORTS/junit, a JVM fatal-error log in REPORTS/hs_err_pid*.log, and appends
# "NAME rc=N secs=S" to REPORTS/steps.txt; returns the launcher's exit code.
# On timeout the JVM gets SIGQUIT first (a thread dump lands in the console file), then SIGKILL
# 15 s later. No pipe: the console output goes to a file that tail follows until the JVM's timeout
# process ends, so a process the tests started and left running (a peer tool holding stdout) cannot
# stall the lab; such processes are killed afterwards (they share timeout's process group).
junit_step() {
  local name=$1 reports=$2 java=$3 to=$4 cpdir=$5; shift 5
  local jvm=() launcher=() t0 rc secs left console=$reports/$name-console.txt
  while [ $# -gt 0 ] && [ "$1" != -- ]; do jvm+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  launcher=("$@")
  echo "##### $name (console output: $console)"
  t0=$EPOCHREALTIME
  : > "$console"
  timeout -s QUIT -k 15 "$to" "$java" --enable-native-access=ALL-UNNAMED \
    -XX:ErrorFile="$reports/hs_err_pid%p.log" "${jvm[@]}" \
    -jar "$cpdir/junit-platform-console-standalone.jar" execute \
    --disable-banner --disable-ansi-colors --details=tree \
    --class-path "$(cat "$cpdir/classpath.txt")" --reports-dir "$reports/junit" \
    "${launcher[@]}" < /dev/null > "$console" 2>&1 &
  local jpid=$!
  tail -n +1 -f --pid="$jpid" "$console" & local tailpid=$!
  wait "$jpid"; rc=$?
  wait "$tailpid"
  if left=$(pgrep -a -g "$jpid"); then
    echo "##### $name: the tests left these processes running; killing them:"
    echo "$left" | sed 's/^/#####   /' | tee -a "$console"
    kill -KILL -- "-$jpid" 2>/dev/null
  fi
  secs=$(awk "BEGIN{printf \"%.1f\", ${EPOCHREALTIME/,/.} - ${t0/,/.}}")
  case $rc in 124|137) echo "##### $name TIMED OUT after ${to}s (rc=$rc; thread dump above)";; esac
  echo "$name rc=$rc secs=$secs" >> "$reports/steps.txt"
  echo "##### $name rc=$rc (${secs}s)"
  return $rc
}
