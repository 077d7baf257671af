#!/bin/bash
# run-lab.sh : the rxe lab end to end, one command, for CI and for people.
#   1. setup-host.sh               apt packages + Debian kernel (idempotent; ~1 s when done)
#   2. host build (never in the guest, build-classpath.sh): mvn install of rar (and api, native), then
#      the test class path of native and rar (<m>-classes, <m>-test-classes, every test-scope jar) plus
#      junit-platform-console-standalone snapshotted into <it-tests>/target/lab-classpath
#   3. ONE guest boot (run-in-vm.sh) running tests/lab-suite.sh: ibv_devinfo -v, the sanity
#      tests (ibv_srq_pingpong -g 1, ib_send_bw --use-srq -x 1, two processes each) and the
#      JUnit console launcher on native's and rar's test classes with
#      -Dverbs.provider=ibverbs -Dverbs.device=rxe0 -Dverbs.gidIndex=1 -Dverbs.devinfo=...
#      -Dverbs.listenAddress=10.77.0.1 (rxe0's netdev address, for rdma_cm tests)
#      Reports go to <it-tests>/target/lab-reports (shared read-write into the guest).
#   3b. the two-host part (LAB_TWOHOST=1, the default): TWO guests at once, joined by one virtual
#      link (a virtio NIC each on a qemu dgram netdev over host loopback UDP), rxe0 on each NIC:
#      the receiver 10.78.0.1 runs io.rdma.srq.ra.lab.TwoHostLabTest, the sender 10.78.0.2 the agent
#      that runs the senders the tests hand it (tests/twohost-suite.sh); reports in
#      <reports>/twohost (receiver/, sender/, control/).
#   4. on the host: JUnit summary from the XML report, kernel and rdma-core versions, times.
# Exit code: 0 only if every sanity test passed, no JUnit test failed (both parts counted together),
# at least one JUnit test ran (found minus skipped > 0) and, with LAB_TWOHOST=1, a two-host test ran. 2 = setup/build problem, 1 = a test problem.
#
# Knobs (environment; those of run-in-vm.sh apply too, e.g. RXE_WORK, RXE_MEM, RXE_SMP):
#   LAB_REPORTS        reports dir (default <it-tests>/target/lab-reports; emptied first)
#   LAB_SKIP_SETUP=1   skip setup-host.sh          LAB_SKIP_BUILD=1  reuse target/lab-classpath
#   LAB_MVN_ARGS       extra Maven args for the host build (e.g. -o)
#   LAB_SETUP_TIMEOUT  seconds for setup-host.sh (default 900)
#   LAB_BUILD_TIMEOUT  seconds for each Maven call (default 900)
#   LAB_STEP_TIMEOUT   seconds for each guest sanity step (default 120)
#   LAB_JUNIT_TIMEOUT  seconds for the JUnit run in the guest (default 1200)
#   LAB_JUNIT_ARGS     extra console-launcher args (e.g. "--include-classname=.*Devinfo.*")
#   LAB_JAVA_OPTS      extra JVM args for the tests
#   LAB_DEVICE (rxe0)  LAB_GID_INDEX (1)  LAB_LISTEN_ADDRESS (RXE_ADDR without the prefix: 10.77.0.1)
#   LAB_JAVA_HOME      JDK 25 for the host build and the guest (default /usr/lib/jvm/temurin-25-jdk-amd64)
#   LAB_TWOHOST        1: also the two-host part (the default, unless LAB_JUNIT_ARGS is set: then 0);
#                      0: not; only: the two-host part alone
#   LAB_TWOHOST_PORT   first of the two host loopback UDP ports of the virtual link (default 17801)
#   RXE_BOOT_TIMEOUT (180), RXE_TIMEOUT (whole VM; default here 2400)
set -u
T0=$(date +%s.%N)
LAB=$(cd "$(dirname "$0")" && pwd)
IT=$(cd "$LAB/.." && pwd)                    # it-tests/
REPO=$(cd "$IT/.." && pwd)
export JAVA_HOME=${LAB_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
CPD=$IT/target/lab-classpath
REPORTS=${LAB_REPORTS:-$IT/target/lab-reports}
now() { date +%s.%N; }
dt() { awk "BEGIN{printf \"%.1f\", $2 - $1}"; }
say() { echo "run-lab: $*" >&2; }
die() { say "$*"; exit 2; }

# 1. host setup -----------------------------------------------------------------------------
T_SETUP=$(now)
if [ "${LAB_SKIP_SETUP:-0}" != 1 ]; then
  timeout -k 10 "${LAB_SETUP_TIMEOUT:-900}" "$LAB/setup-host.sh" || die "setup-host.sh failed or timed out (rc=$?)"
fi
T_BUILD=$(now)

# 2. host build of the test class path ------------------------------------------------------
if [ "${LAB_SKIP_BUILD:-0}" != 1 ] || [ ! -s "$CPD/classpath.txt" ]; then
  "$LAB/build-classpath.sh" "$CPD" || die "host build of the class path failed"
fi
mkdir -p "$CPD/bin"
gcc -O2 -Wall -o "$CPD/bin/seq_send" "$LAB/tests/twohost/seq_send.c" -lrdmacm -libverbs || die "cannot build seq_send"
NTEST=$(find "$CPD"/*-test-classes -name '*Test.class' -o -name '*Tests.class' | wc -l)
say "test class path in $CPD ($(ls "$CPD/lib" | wc -l) jars, $NTEST test classes)"
T_VM=$(now)

# 3. one guest boot -------------------------------------------------------------------------
rm -rf "$REPORTS"; mkdir -p "$REPORTS"; REPORTS=$(cd "$REPORTS" && pwd)
export LAB_DEVICE=${LAB_DEVICE:-rxe0} LAB_GID_INDEX=${LAB_GID_INDEX:-1}
export LAB_LISTEN_ADDRESS=${LAB_LISTEN_ADDRESS:-$(A=${RXE_ADDR:-10.77.0.1/24}; echo "${A%/*}")}
export LAB_STEP_TIMEOUT=${LAB_STEP_TIMEOUT:-120} LAB_JUNIT_TIMEOUT=${LAB_JUNIT_TIMEOUT:-1200}
export LAB_JUNIT_ARGS=${LAB_JUNIT_ARGS:-} LAB_JAVA_OPTS=${LAB_JAVA_OPTS:-}
export LAB_JAVA=$JAVA_HOME/bin/java
# the two-host part by default, but not when LAB_JUNIT_ARGS narrows the run to some tests (set LAB_TWOHOST=1 too for both)
TWOHOST=${LAB_TWOHOST:-$([ -n "$LAB_JUNIT_ARGS" ] && echo 0 || echo 1)}
VMRC=0
if [ "$TWOHOST" != only ]; then
  RXE_RW=$REPORTS RXE_TIMINGS=$REPORTS/vm-timings.txt \
  RXE_ENV="LAB_DEVICE LAB_GID_INDEX LAB_LISTEN_ADDRESS LAB_STEP_TIMEOUT LAB_JUNIT_TIMEOUT LAB_JUNIT_ARGS LAB_JAVA_OPTS LAB_JAVA" \
  RXE_TIMEOUT=${RXE_TIMEOUT:-2400} RXE_CMD_TIMEOUT=${RXE_CMD_TIMEOUT:-$((LAB_JUNIT_TIMEOUT + 6 * LAB_STEP_TIMEOUT + 60))} \
    "$LAB/run-in-vm.sh" "$LAB/tests/lab-suite.sh" "$REPORTS" "$CPD" 2>&1 | tee "$REPORTS/lab-console.txt"
  VMRC=${PIPESTATUS[0]}
fi
T_TWO=$(now)

# 3b. the two-host part: two guests at once on one virtual link -----------------------------
TH=$REPORTS/twohost THRC=0 THSRC=0
if [ "$TWOHOST" != 0 ]; then
  mkdir -p "$TH"
  P1=${LAB_TWOHOST_PORT:-17801}; P2=$((P1 + 1))
  link() { echo "dgram,local.type=inet,local.host=127.0.0.1,local.port=$1,remote.type=inet,remote.host=127.0.0.1,remote.port=$2"; }
  guest() {   # guest ROLE ADDRESS PEER LOCAL-PORT REMOTE-PORT MAC-SUFFIX
    LAB_LISTEN_ADDRESS=$2 LAB_TWOHOST_PEER=$3 RXE_NETDEV=nic RXE_ADDR=$2/24 RXE_NIC=$(link "$4" "$5") \
    RXE_MAC=52:54:00:78:00:$6 RXE_HOSTNAME=rxe-$1 RXE_RW=$TH RXE_TIMINGS=$TH/vm-timings-$1.txt \
    RXE_ENV="LAB_DEVICE LAB_GID_INDEX LAB_LISTEN_ADDRESS LAB_TWOHOST_PEER LAB_JUNIT_TIMEOUT LAB_JAVA_OPTS LAB_JAVA" \
    RXE_TIMEOUT=${RXE_TIMEOUT:-2400} RXE_CMD_TIMEOUT=${RXE_CMD_TIMEOUT:-$((LAB_JUNIT_TIMEOUT + 60))} \
      "$LAB/run-in-vm.sh" "$LAB/tests/twohost-suite.sh" "$1" "$TH" "$CPD" > "$TH/$1-console.txt" 2>&1
  }
  say "two-host part: receiver 10.78.0.1 and sender 10.78.0.2 on one link (UDP 127.0.0.1:$P1 <-> :$P2)"
  guest sender 10.78.0.2 10.78.0.1 "$P2" "$P1" 02 & SPID=$!
  guest receiver 10.78.0.1 10.78.0.2 "$P1" "$P2" 01 & RPID=$!
  tail -n +1 -f --pid="$RPID" "$TH/receiver-console.txt" 2>/dev/null &
  wait "$RPID"; THRC=$?
  wait "$SPID"; THSRC=$?
fi
T_END=$(now)

# 4. summary on the host --------------------------------------------------------------------
fail=0
echo
echo "==================== rxe lab summary ===================="
echo "sanity and JUnit steps (guest):"
if [ -s "$REPORTS/steps.txt" ]; then sed 's/^/  /' "$REPORTS/steps.txt"; else echo "  (none recorded)"; fi
if [ "$TWOHOST" != only ]; then
  for s in ibv_devinfo ibv_srq_pingpong ib_send_bw_srq; do
    grep -q "^$s rc=0 " "$REPORTS/steps.txt" 2>/dev/null || { echo "FAILED sanity step: $s"; fail=1; }
  done
fi
XML=$(ls "$REPORTS"/junit/TEST-*.xml "$TH"/receiver/junit/TEST-*.xml 2>/dev/null)
attr() { local v; v=$(sed -n "s/.*<testsuite [^>]*\b$1=\"\([0-9]*\)\".*/\1/p" "$2" | head -1); echo "${v:-0}"; }
found=0 skipped=0 failures=0 errors=0
for x in $XML; do
  found=$((found + $(attr tests "$x"))); skipped=$((skipped + $(attr skipped "$x")))
  failures=$((failures + $(attr failures "$x"))); errors=$((errors + $(attr errors "$x")))
done
ran=$((found - skipped)); ok=$((ran - failures - errors))
if [ -z "$XML" ]; then
  echo "JUnit: NO XML report in $REPORTS/junit (see $REPORTS/junit-console.txt)"; fail=1
else
  echo "JUnit (both parts): $found tests found, $ok succeeded, $((failures + errors)) failed, $skipped skipped (XML: $REPORTS/junit)"
  [ $((failures + errors)) = 0 ] || fail=1
  [ "$ran" -gt 0 ] || { echo "JUnit: no test ran (found $found, skipped $skipped)"; fail=1; }
  # failed test cases: name, message, first lines of the stack trace
  awk 'function unxml(t) { gsub(/&lt;/,"<",t); gsub(/&gt;/,">",t); gsub(/&quot;/,"\"",t); gsub(/&apos;/,"\047",t); gsub(/&amp;/,"\\&",t); return t }
       /<testcase /{match($0,/name="[^"]*"/); n=substr($0,RSTART+6,RLENGTH-7);
                    match($0,/classname="[^"]*"/); c=substr($0,RSTART+11,RLENGTH-12)}
       /<(failure|error)[ >]/{m=$0; sub(/.*message="/,"",m); sub(/".*/,"",m);
                    print "  FAILED " c " > " unxml(n) ": " substr(unxml(m),1,300); st=4}
       st>0 && /^\tat /{print "      " $0; st--}
       /\]\]>/{st=0}' $XML
fi
[ "$TWOHOST" = only ] || grep -q '^junit rc=' "$REPORTS/steps.txt" 2>/dev/null || { echo "JUnit step did not finish"; fail=1; }
if [ "$TWOHOST" != 0 ]; then
  echo "two-host part (receiver exit code $THRC, sender agent exit code $THSRC; $TH):"
  grep -h '^TWOHOST ' "$TH/receiver/junit-console.txt" 2>/dev/null | sed 's/^/  /'
  tx=$(ls "$TH"/receiver/junit/TEST-*.xml 2>/dev/null)
  tran=0; for x in $tx; do tran=$((tran + $(attr tests "$x") - $(attr skipped "$x"))); done
  [ "$tran" -gt 0 ] || { echo "two-host part: no test ran"; fail=1; }
  grep -q '^junit rc=' "$TH/receiver/steps.txt" 2>/dev/null || { echo "two-host JUnit step did not finish"; fail=1; }
  [ "$THRC" = 0 ] && [ "$THSRC" = 0 ] || { echo "two-host guests: receiver exit code $THRC, sender $THSRC"; fail=1; }
fi
for h in "$REPORTS"/hs_err_pid*.log "$TH"/receiver/hs_err_pid*.log "$TH"/hs_err_pid*.log; do     # the JVM's fatal error log (-XX:ErrorFile)
  [ -f "$h" ] || continue
  echo "JVM CRASHED ($h):"; grep -m1 -E '^# +SIG[A-Z]+ ' "$h" | sed 's/^/  /'; grep -m1 -A1 '^# Problematic frame' "$h" | tail -1 | sed 's/^/  /'
  fail=1
done
[ "$VMRC" = 0 ] || { echo "guest command exit code $VMRC (124 = timeout, 125 = no exit code from the guest)"; fail=1; }
KERNEL=$(cat "$REPORTS/kernel.txt" "$TH/receiver/kernel.txt" 2>/dev/null | head -1); KERNEL=${KERNEL:-unknown}
RDMA_CORE=$(dpkg-query -W -f='${Version}' libibverbs1 2>/dev/null || echo unknown)
read -r BOOT CMD VMTOTAL < <(sed -n 's/^boot=\([^ ]*\) cmd=\([^ ]*\) total=\([^ ]*\).*/\1 \2 \3/p' "$REPORTS/vm-timings.txt" 2>/dev/null)
# (the release's tools: Debian 12 has qemu 7.2 and perftest 4.5, Debian 13 qemu 10.0 and perftest 25.01)
echo "kernel: $KERNEL   rdma-core (libibverbs1): $RDMA_CORE   perftest: $(dpkg-query -W -f='${Version}' perftest 2>/dev/null)   qemu: $(qemu-system-x86_64 --version 2>/dev/null | awk 'NR == 1 {print $4}')   java: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
echo "times: setup $(dt "$T_SETUP" "$T_BUILD")s, host build $(dt "$T_BUILD" "$T_VM")s, VM $(dt "$T_VM" "$T_TWO")s (boot ${BOOT:-?}s, guest command ${CMD:-?}s), two-host VMs $(dt "$T_TWO" "$T_END")s, wall $(dt "$T0" "$T_END")s"
echo "reports: $REPORTS"
echo "result: $([ $fail = 0 ] && echo PASS || echo FAIL)"
echo "$(date -u +%FT%TZ) wall=$(dt "$T0" "$T_END") boot=${BOOT:-?} kernel=$KERNEL rdma-core=$RDMA_CORE found=$found succeeded=$ok failed=$((failures + errors)) skipped=$skipped result=$([ $fail = 0 ] && echo PASS || echo FAIL)" > "$REPORTS/summary.txt"
exit $fail
