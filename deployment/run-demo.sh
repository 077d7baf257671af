#!/usr/bin/env bash
# The one-command demo: build, provision WildFly, configure the adapter, start the server on the
# embedded soft RDMA device, deploy the demo, send a load through SrqPeer connections to the demo's
# MDB and report what arrived. See deployment/README.md.
#
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 ./deployment/run-demo.sh [options]
#
# Exit status: 0 when every message sent was delivered exactly once to the MDB; 1 otherwise (or on
# any failure on the way); 2 for a usage error.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: deployment/run-demo.sh [options]

  -n, --messages N      messages to send (default 100000)
  -c, --connections K   peer connections to send over, round-robin (default 8, at most 256)
  -s, --size BYTES      bytes per message (default 64, at most 4096)
  -w, --warm N          a second run of N messages after the first, reported as the warm
                        figure (default: as many as --messages; 0 skips it). The first run
                        starts on a cold JIT and is reported as the cold figure.
      --calls N         request/reply phase: N EJB -> MDB -> EJB calls of SIZE bytes, twice
                        (cold, then warm unless --warm 0; default 10000; 0 skips the phase;
                        the answer must come within 120 s)
      --call-threads T  callers of the request/reply phase, 1..8 (default 1)
      --two-servers     also start a second server (port offset 100, srq-demo-peer.war: an MDB on
                        libfabric's tcp, 127.0.0.1:7473) and run the request/reply phase across
                        the two servers too (java:/eis/SrqFabric, fabric.cli; needs libfabric1)
      --cluster         as --two-servers, the two servers one WildFly cluster (standalone-ha.xml,
                        cluster.cli: JGroups over TCP on 127.0.0.1:7600/7700), and the request/
                        reply phase once more by service name (connect("demo-peer"): the first
                        server finds the second's MDB in WildFly's clustering registrar); then
                        a cluster singleton (srq-demo-singleton.war on both, clusterSingleton=true):
                        calls to it, and calls while it is undeployed on the elected server
                        (the other server takes over)
      --keep-running    leave the server running afterwards (stop it with
                        deployment/target/wildfly/bin/jboss-cli.sh -c :shutdown)
      --skip-build      do not run Maven (use what the last build left in deployment/target)
      --timeout SEC     longest the load may take, sending and delivering (default 300)
  -h, --help            this text

Environment: JAVA_HOME (a JDK 25; required unless java on the PATH is 25 or newer), JAVA_OPTS
(replaces the server JVM options; --enable-native-access=ALL-UNNAMED is always added).
Ports: WildFly's defaults, 8080 (HTTP) and 9990 (management); both must be free (with
--two-servers also 8180 and 10090, and 127.0.0.1:7473 for the second server's MDB; with --cluster
also 7600 and 7700 for JGroups).
EOF
}

MESSAGES=100000
CONNECTIONS=8
SIZE=64
WARM=""
CALLS=10000
CALL_THREADS=1
KEEP=false
TWO=false
CLUSTER=false
BUILD=true
RUN_TIMEOUT=300
# every other wait is bounded too
BUILD_TIMEOUT=1800
CONFIGURE_TIMEOUT=180
BOOT_TIMEOUT=120
DEPLOY_TIMEOUT=120
STOP_TIMEOUT=60
STALL_TIMEOUT=30

while [ $# -gt 0 ]; do
    case "$1" in
        -n|--messages|-c|--connections|-s|--size|-w|--warm|--timeout|--calls|--call-threads)
            if [ $# -lt 2 ]; then echo "run-demo: $1 needs a value" >&2; usage >&2; exit 2; fi ;;&
        -n|--messages) MESSAGES="$2"; shift 2 ;;
        --messages=*) MESSAGES="${1#*=}"; shift ;;
        -c|--connections) CONNECTIONS="$2"; shift 2 ;;
        --connections=*) CONNECTIONS="${1#*=}"; shift ;;
        -s|--size) SIZE="$2"; shift 2 ;;
        --size=*) SIZE="${1#*=}"; shift ;;
        -w|--warm) WARM="$2"; shift 2 ;;
        --warm=*) WARM="${1#*=}"; shift ;;
        --timeout) RUN_TIMEOUT="$2"; shift 2 ;;
        --calls) CALLS="$2"; shift 2 ;;
        --calls=*) CALLS="${1#*=}"; shift ;;
        --call-threads) CALL_THREADS="$2"; shift 2 ;;
        --call-threads=*) CALL_THREADS="${1#*=}"; shift ;;
        --timeout=*) RUN_TIMEOUT="${1#*=}"; shift ;;
        --keep-running) KEEP=true; shift ;;
        --two-servers) TWO=true; shift ;;
        --cluster) TWO=true; CLUSTER=true; shift ;;
        --skip-build) BUILD=false; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "run-demo: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
WARM="${WARM:-$MESSAGES}"
SERVER_CONFIG=standalone.xml
if $CLUSTER; then SERVER_CONFIG=standalone-ha.xml; fi
if ! [[ "$WARM" =~ ^[0-9]{1,10}$ ]] || [ "$WARM" -gt 2147483647 ]; then
    echo "run-demo: --warm must be an integer in 0..2147483647 (a Java int; 0 skips the warm run), got '$WARM'" >&2
    exit 2
fi
# option  variable  largest allowed (what bounds it)
check_range() {
    local option="$1" value="$2" max="$3" why="$4"
    if ! [[ "$value" =~ ^[0-9]{1,10}$ ]] || [ "$value" -lt 1 ] || [ "$value" -gt "$max" ]; then
        echo "run-demo: $option must be an integer in 1..$max ($why), got '$value'" >&2
        exit 2
    fi
}
check_range --messages "$MESSAGES" 2147483647 "a Java int"
check_range --connections "$CONNECTIONS" 256 "the demo's limit"
check_range --size "$SIZE" 4096 "the demo MDB's bufferSize"
check_range --timeout "$RUN_TIMEOUT" 86400 "seconds"
check_range --call-threads "$CALL_THREADS" 8 "the demo's limit"
if ! [[ "$CALLS" =~ ^[0-9]{1,7}$ ]]; then
    echo "run-demo: --calls must be an integer in 0..9999999, got '$CALLS'" >&2
    exit 2
fi
if [ $(( CALLS % CALL_THREADS )) -ne 0 ]; then
    echo "run-demo: --calls ($CALLS) must be a multiple of --call-threads ($CALL_THREADS) (each caller makes calls / threads calls; 0 skips the phase)" >&2
    exit 2
fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEP="$ROOT/deployment"
TARGET="$DEP/target"
WILDFLY="$TARGET/wildfly"
BASE="$TARGET/demo-server"           # the demo server's jboss.server.base.dir, fresh every run
LOG="$BASE/log/server.log"
CONSOLE="$TARGET/demo-server-console.log"
CLI="$WILDFLY/bin/jboss-cli.sh"
HTTP_BASE="http://127.0.0.1:8080/srq-demo/api"
BASE_B="$TARGET/demo-server-b"       # --two-servers: the second server's base dir (port offset 100)
LOG_B="$BASE_B/log/server.log"

now_ms() { date +%s%3N; }
T0=$(now_ms)
say() { printf 'run-demo: %s\n' "$*"; }
fail() { printf 'run-demo: FAILED: %s\n' "$*" >&2; exit 1; }
secs() { awk -v ms="$1" 'BEGIN { printf "%.1f s", ms / 1000 }'; }

# ---------------------------------------------------------------- prerequisites

if [ -n "${JAVA_HOME:-}" ]; then
    JAVA="$JAVA_HOME/bin/java"
    [ -x "$JAVA" ] || fail "JAVA_HOME=$JAVA_HOME has no bin/java"
else
    JAVA="$(command -v java || true)"
    [ -n "$JAVA" ] || fail "no java: set JAVA_HOME to a JDK 25, e.g. JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 $0"
    JAVA_HOME="$(cd "$(dirname "$(readlink -f "$JAVA")")/.." && pwd)"
fi
export JAVA_HOME
JAVA_SPEC="$("$JAVA" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ { print $2; exit }')"
if ! [[ "$JAVA_SPEC" =~ ^[0-9]+$ ]] || [ "$JAVA_SPEC" -lt 25 ]; then
    fail "$JAVA is Java ${JAVA_SPEC:-?}; the adapter needs JDK 25 or newer: JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 $0"
fi
if $BUILD; then
    command -v mvn >/dev/null || fail "no mvn on the PATH (Maven 3.8.7 or newer is needed to build)"
fi

# one demo at a time in this checkout: a second run would rebuild and wipe the first one's server
mkdir -p "$TARGET"
exec 9>"$TARGET/run-demo.lock"
if ! flock -n 9; then
    fail "another run-demo.sh is running in this checkout ($TARGET/run-demo.lock); wait for it or stop it"
fi

# is something accepting connections on 127.0.0.1:$1?
port_taken() { timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }
if port_taken 9990; then
    fail "port 9990 (WildFly management) is already in use: another server is running. Stop it first, e.g. $CLI -c :shutdown"
fi
if port_taken 8080; then
    fail "port 8080 (WildFly HTTP) is already in use; stop whatever listens there first"
fi

# ---------------------------------------------------------------- HTTP (curl, else bash's /dev/tcp)

HTTP_STATUS=""
HTTP_BODY=""
# http METHOD URL [ACCEPT] [MAX_SECONDS] -> HTTP_STATUS, HTTP_BODY; never waits more than MAX_SECONDS (15)
http() {
    local method="$1" url="$2" accept="${3:-application/json}" max="${4:-15}" out
    if command -v curl >/dev/null; then
        out="$(curl -sS -m "$max" -X "$method" -H "Accept: $accept" -w '\n%{http_code}' "$url" 2>/dev/null)" || out=$'\n000'
        HTTP_STATUS="${out##*$'\n'}"
        HTTP_BODY="${out%$'\n'*}"
    else
        local path="/${url#http://*/}"
        out="$(timeout "$max" bash -c 'exec 3<>/dev/tcp/127.0.0.1/8080 || exit 1
            printf "%s %s HTTP/1.0\r\nHost: localhost:8080\r\nAccept: %s\r\nContent-Length: 0\r\n\r\n" "$0" "$1" "$2" >&3
            cat <&3' "$method" "$path" "$accept" 2>/dev/null | tr -d '\r')" || out=""
        HTTP_STATUS="$(printf '%s\n' "$out" | awk 'NR == 1 { print $2 }')"
        HTTP_STATUS="${HTTP_STATUS:-000}"
        HTTP_BODY="$(printf '%s\n' "$out" | awk 'body { print } /^$/ { body = 1 }')"
    fi
}
# field NAME: the value of NAME=value in HTTP_BODY (the report as text)
field() { printf '%s\n' "$HTTP_BODY" | awk -F= -v k="$1" '$1 == k { sub(/^[^=]*=/, ""); print; exit }'; }

# ---------------------------------------------------------------- server life cycle

SERVER_SH_PID=""
STARTED_SERVER=false
cli() { # cli TIMEOUT ARGS...: jboss-cli connected to localhost:9990
    local t="$1"; shift
    JAVA_OPTS="--sun-misc-unsafe-memory-access=allow" timeout "$t" "$CLI" -c --controller=127.0.0.1:9990 --timeout=10000 "$@"
}
server_alive() { [ -n "$SERVER_SH_PID" ] && kill -0 "$SERVER_SH_PID" 2>/dev/null; }
server_pid() { cat "$BASE/wildfly.pid" 2>/dev/null || true; }
stop_server() {
    server_alive || return 0
    say "stopping the server"
    if ! cli 30 --command=:shutdown >/dev/null 2>&1; then
        # management not reachable (e.g. still booting): SIGTERM, which WildFly also takes as a shutdown
        local pid; pid="$(server_pid)"
        if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; fi
    fi
    local deadline=$(( $(date +%s) + STOP_TIMEOUT ))
    while server_alive && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.3; done
    if server_alive; then
        say "the server did not stop within ${STOP_TIMEOUT} s; killing it"
        local pid; pid="$(server_pid)"
        if [ -n "$pid" ]; then kill -KILL "$pid" 2>/dev/null || true; fi
        kill -KILL "$SERVER_SH_PID" 2>/dev/null || true
    fi
}
SERVER_B_PID=""
stop_server_b() { # the second server (--two-servers): :shutdown on 10090, else SIGTERM, then SIGKILL
    [ -n "$SERVER_B_PID" ] && kill -0 "$SERVER_B_PID" 2>/dev/null || return 0
    say "stopping the second server"
    JAVA_OPTS="--sun-misc-unsafe-memory-access=allow" timeout 30 "$CLI" -c --controller=127.0.0.1:10090 \
        --timeout=10000 --command=:shutdown >/dev/null 2>&1 || kill -TERM "$(cat "$BASE_B/wildfly.pid" 2>/dev/null)" 2>/dev/null || true
    local deadline=$(( $(date +%s) + STOP_TIMEOUT ))
    while kill -0 "$SERVER_B_PID" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.3; done
    if kill -0 "$SERVER_B_PID" 2>/dev/null; then
        kill -KILL "$(cat "$BASE_B/wildfly.pid" 2>/dev/null)" "$SERVER_B_PID" 2>/dev/null || true
    fi
}
on_exit() {
    local rc=$?
    if ! $KEEP; then stop_server_b; fi
    if $STARTED_SERVER && ! $KEEP; then
        stop_server
    elif $STARTED_SERVER && server_alive; then
        say "the server is left running (--keep-running); stop it with: $CLI -c :shutdown"
    fi
    say "total time $(secs $(( $(now_ms) - T0 )))"
    exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT TERM HUP PIPE

# ---------------------------------------------------------------- 1. build

if $BUILD; then
    say "building: mvn -B -q install -DskipTests (in $ROOT)"
    B0=$(now_ms)
    mkdir -p "$TARGET"
    if ! (cd "$ROOT" && MAVEN_OPTS="${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow}" \
            timeout "$BUILD_TIMEOUT" mvn -B -q install -DskipTests) > "$TARGET/demo-build.log" 2>&1; then
        tail -n 40 "$TARGET/demo-build.log" >&2
        fail "the build failed or took more than ${BUILD_TIMEOUT} s (log: $TARGET/demo-build.log)"
    fi
    say "built in $(secs $(( $(now_ms) - B0 ))) (log: $TARGET/demo-build.log)"
fi
for f in "$WILDFLY/bin/standalone.sh" "$WILDFLY/modules/system/layers/base/io/rdma/srq/subsystem" "$TARGET/srq-demo.war" "$TARGET/standalone-pristine/configuration/standalone.xml"; do
    [ -e "$f" ] || fail "$f is missing: build first (mvn -B install -DskipTests, or drop --skip-build)"
done

# ---------------------------------------------------------------- 2. configure (offline)

say "configuring a fresh server base dir $BASE with configure.cli (offline)"
C0=$(now_ms)
rm -rf "$BASE"
cp -a "$TARGET/standalone-pristine" "$BASE"
rm -rf "$BASE/.provisioned"
{
    echo "embed-server --std-out=discard --server-config=$SERVER_CONFIG"
    cat "$DEP/src/main/cli/configure.cli"
    echo
    cat "$DEP/src/main/cli/demo.cli"
    echo
    if $TWO; then cat "$DEP/src/main/cli/fabric.cli"; echo; fi
    if $CLUSTER; then cat "$DEP/src/main/cli/cluster.cli"; echo; fi
    echo "stop-embedded-server"
} > "$TARGET/demo-configure-offline.cli"
JBOSS_HOME="$WILDFLY" JAVA_OPTS="-Djboss.server.base.dir=$BASE --sun-misc-unsafe-memory-access=allow" \
    timeout "$CONFIGURE_TIMEOUT" "$CLI" --file="$TARGET/demo-configure-offline.cli" --resolve-parameter-values \
    --properties="$DEP/src/main/cli/srq.properties" -Dsrq.rar.path="$TARGET/srq-rar.rar" \
    > "$TARGET/demo-configure.log" 2>&1 \
    || { cat "$TARGET/demo-configure.log" >&2; fail "configure.cli failed (see above)"; }
# the embedded server logged to the same log/server.log: keep that apart from the real server's log
mkdir -p "$BASE/log"
if [ -f "$LOG" ]; then mv "$LOG" "$BASE/log/configure-embedded.log"; fi
if $TWO; then
    [ -e "$TARGET/srq-demo-peer.war" ] || fail "$TARGET/srq-demo-peer.war is missing: build first (drop --skip-build)"
    rm -rf "$BASE_B"
    cp -a "$BASE" "$BASE_B"   # the same configuration (with fabric.cli's java:/eis/SrqFabric)
fi
say "configured in $(secs $(( $(now_ms) - C0 )))"

# ---------------------------------------------------------------- 3. start

SERVER_JAVA_OPTS="${JAVA_OPTS:--Xms256m -Xmx1g -XX:MetaspaceSize=96M -XX:MaxMetaspaceSize=256m -Djava.net.preferIPv4Stack=true -Djboss.modules.system.pkgs=org.jboss.byteman -Djava.awt.headless=true --sun-misc-unsafe-memory-access=allow}"
SERVER_JAVA_OPTS="$SERVER_JAVA_OPTS --enable-native-access=ALL-UNNAMED"
say "starting WildFly ($WILDFLY, base dir $BASE)"
S0=$(now_ms)
JBOSS_HOME="$WILDFLY" JBOSS_BASE_DIR="$BASE" JBOSS_PIDFILE="$BASE/wildfly.pid" LAUNCH_JBOSS_IN_BACKGROUND=1 \
    JAVA_OPTS="$SERVER_JAVA_OPTS" \
    nohup "$WILDFLY/bin/standalone.sh" -c "$SERVER_CONFIG" -Djboss.server.base.dir="$BASE" -Djboss.node.name=demo-a \
    > "$CONSOLE" 2>&1 < /dev/null &
SERVER_SH_PID=$!
STARTED_SERVER=true
if $TWO; then
    say "starting the second server (base dir $BASE_B, port offset 100)"
    JBOSS_HOME="$WILDFLY" JBOSS_BASE_DIR="$BASE_B" JBOSS_PIDFILE="$BASE_B/wildfly.pid" LAUNCH_JBOSS_IN_BACKGROUND=1 \
        JAVA_OPTS="$SERVER_JAVA_OPTS" \
        nohup "$WILDFLY/bin/standalone.sh" -c "$SERVER_CONFIG" -Djboss.server.base.dir="$BASE_B" -Djboss.socket.binding.port-offset=100 \
        -Djboss.node.name=demo-b > "$TARGET/demo-server-b-console.log" 2>&1 < /dev/null &
    SERVER_B_PID=$!
fi

deadline=$(( $(date +%s) + BOOT_TIMEOUT ))
while ! grep -qE 'WFLYSRV0025|WFLYSRV0026' "$LOG" 2>/dev/null; do
    server_alive || { tail -n 30 "$CONSOLE" >&2; fail "the server exited during boot (console: $CONSOLE, log: $LOG)"; }
    [ "$(date +%s)" -lt "$deadline" ] || fail "the server did not boot within ${BOOT_TIMEOUT} s (log: $LOG)"
    sleep 0.2
done
BOOT_MS=$(( $(now_ms) - S0 ))
if grep -q 'WFLYSRV0026' "$LOG"; then
    grep -E ' ERROR ' "$LOG" | head -n 20 >&2 || true
    fail "the server started with errors (log: $LOG)"
fi
grep -q 'WFLYJCA0002: Bound Jakarta Connectors ConnectionFactory \[java:/eis/SrqConnectionFactory\]' "$LOG" \
    || fail "the Galleon layer's adapter rdma-srq did not bind java:/eis/SrqConnectionFactory (log: $LOG)"
say "booted in $(secs "$BOOT_MS") ($(grep -oE 'WFLYSRV0025: .*' "$LOG" | head -n 1 | sed -E 's/.*started in ([0-9]+)ms.*/server reports \1 ms/'))"

# ---------------------------------------------------------------- 4. deploy the demo

say "deploying srq-demo.war"
D0=$(now_ms)
cli "$DEPLOY_TIMEOUT" --command="deploy $TARGET/srq-demo.war" > "$TARGET/demo-deploy.log" 2>&1 \
    || { cat "$TARGET/demo-deploy.log" >&2; fail "deploying srq-demo.war failed (log: $LOG)"; }
deadline=$(( $(date +%s) + DEPLOY_TIMEOUT ))
while :; do
    http GET "$HTTP_BASE/device"
    [ "$HTTP_STATUS" = 200 ] && break
    [ "$(date +%s)" -lt "$deadline" ] || fail "GET /srq-demo/api/device answers $HTTP_STATUS: $HTTP_BODY"
    sleep 0.5
done
say "deployed in $(secs $(( $(now_ms) - D0 ))); GET /srq-demo/api/device:"
printf '    %s\n' "$HTTP_BODY"

if $TWO; then
    deadline=$(( $(date +%s) + BOOT_TIMEOUT ))
    while ! grep -qE 'WFLYSRV0025|WFLYSRV0026' "$LOG_B" 2>/dev/null; do
        kill -0 "$SERVER_B_PID" 2>/dev/null || fail "the second server exited during boot (log: $LOG_B)"
        [ "$(date +%s)" -lt "$deadline" ] || fail "the second server did not boot within ${BOOT_TIMEOUT} s (log: $LOG_B)"
        sleep 0.2
    done
    grep -q 'WFLYSRV0026' "$LOG_B" && fail "the second server started with errors (log: $LOG_B)"
    say "second server up; deploying srq-demo-peer.war there (FabricResponder on libfabric tcp, 127.0.0.1:7473)"
    JAVA_OPTS="--sun-misc-unsafe-memory-access=allow" timeout "$DEPLOY_TIMEOUT" "$CLI" -c --controller=127.0.0.1:10090 \
        --timeout=10000 --command="deploy $TARGET/srq-demo-peer.war" > "$TARGET/demo-deploy-b.log" 2>&1 \
        || { cat "$TARGET/demo-deploy-b.log" >&2; fail "deploying srq-demo-peer.war on the second server failed (log: $LOG_B)"; }
    grep -h 'SRQRA0303' "$LOG_B" | tail -n 1 | sed 's/^.*SRQRA0303: /    /'
fi

# ---------------------------------------------------------------- 5. load

# run_load N: starts a run of N messages and prints a progress line until it is DONE or FAILED
run_load() {
    local n="$1" deadline last_delivered=-1 last_change now line
    say "POST /srq-demo/api/load?messages=$n&connections=$CONNECTIONS&size=$SIZE"
    http POST "$HTTP_BASE/load?messages=$n&connections=$CONNECTIONS&size=$SIZE"
    [ "$HTTP_STATUS" = 202 ] || fail "starting the load answered $HTTP_STATUS: $HTTP_BODY"
    deadline=$(( $(date +%s) + RUN_TIMEOUT ))
    last_change=$(date +%s)
    while :; do
        sleep 1
        http GET "$HTTP_BASE/report" text/plain
        [ "$HTTP_STATUS" = 200 ] || fail "GET /srq-demo/api/report answered $HTTP_STATUS: $HTTP_BODY"
        state="$(field state)"; sent="$(field sent)"; delivered="$(field delivered)"
        line="$(printf '%-7s sent %9s/%s  delivered %9s  limit events %4s  %7s msg/s  %6.1f s' "$state" "$sent" \
            "$n" "$delivered" "$(field limitEvents)" "$(field throughput)" \
            "$(awk -v ms="$(field elapsedMs)" 'BEGIN { print ms / 1000 }')")"
        if $TTY; then printf '\r%s' "$line"; else printf '%s\n' "$line"; fi
        if [ "$state" = DONE ] || [ "$state" = FAILED ]; then break; fi
        now=$(date +%s)
        if [ "$delivered" != "$last_delivered" ]; then last_delivered="$delivered"; last_change=$now; fi
        if [ "$state" = SENT ] && [ $(( now - last_change )) -ge "$STALL_TIMEOUT" ]; then
            if $TTY; then echo; fi
            fail "all $sent messages were sent but deliveries stopped at $delivered for ${STALL_TIMEOUT} s"
        fi
        if [ "$now" -ge "$deadline" ]; then
            if $TTY; then echo; fi
            fail "the load did not finish within ${RUN_TIMEOUT} s (--timeout): sent $sent, delivered $delivered"
        fi
    done
    if $TTY; then echo; fi
}

TTY=false
[ -t 1 ] && TTY=true
state=""; sent=""; delivered=""
# run_report N LABEL: a run of N messages, then its report as COLD_/WARM_ variables (LABEL), the
# second look after a moment (a duplicate delivery would show as delivered > sent)
run_report() {
    say "$2 run: $1 messages"
    run_load "$1"
    sleep 1
    http GET "$HTTP_BASE/report" text/plain
    printf -v "${2}_STATE" '%s' "$(field state)"
    printf -v "${2}_SENT" '%s' "$(field sent)"
    printf -v "${2}_DELIVERED" '%s' "$(field delivered)"
    printf -v "${2}_TP" '%s msg/s (first send to last delivery, %s ms); send phase %s msg/s' "$(field throughput)" \
        "$(field elapsedMs)" "$(field sendThroughput)"
    printf -v "${2}_ERROR" '%s' "$(field error)"
    printf -v "${2}_LIMIT" '%s (@Observes), %s (@ObservesAsync)' "$(field limitEvents)" "$(field limitEventsAsync)"
}
run_report "$MESSAGES" cold
if [ "$WARM" -gt 0 ]; then
    run_report "$WARM" warm
fi

# ---------------------------------------------------------------- 5b. request/reply
# EJB -> MDB -> EJB: CallLoop calls RoundTrip (a @Stateless bean: pooled connection, pooled peer,
# SrqPeer.call) which DemoResponder (an MDB) answers; HdrHistogram percentiles of the round trips
# (twice, as the loads: cold, then warm unless --warm 0)
CALLS_COLD=""; CALLS_WARM=""
run_calls() { # run_calls LABEL: one phase of CALLS calls; its answer in HTTP_BODY
    say "request/reply, $1: $CALLS calls of $SIZE bytes from $CALL_THREADS caller(s) (POST /srq-demo/api/calls)"
    # a cold JIT on a loaded 2-core machine made 10,000 calls take 14 s: allow 2 minutes
    http POST "$HTTP_BASE/calls?calls=$CALLS&threads=$CALL_THREADS&size=$SIZE" text/plain 120
    [ "$HTTP_STATUS" = 200 ] || fail "the request/reply phase answered $HTTP_STATUS: $HTTP_BODY"
}
if [ "$CALLS" -gt 0 ]; then
    run_calls cold; CALLS_COLD="$HTTP_BODY"
    if [ "$WARM" -gt 0 ]; then run_calls warm; CALLS_WARM="$HTTP_BODY"; fi
fi
# --two-servers: the same calls to the second server's FabricResponder, over libfabric's tcp
CALLS_PEER=""
if $TWO && [ "$CALLS" -gt 0 ]; then
    say "request/reply across two servers: $CALLS calls of $SIZE bytes (POST /srq-demo/api/calls?to=peer: java:/eis/SrqFabric, libfabric tcp)"
    http POST "$HTTP_BASE/calls?calls=$CALLS&threads=$CALL_THREADS&size=$SIZE&to=peer" text/plain 120
    [ "$HTTP_STATUS" = 200 ] || fail "the two-server phase answered $HTTP_STATUS: $HTTP_BODY"
    CALLS_PEER="$HTTP_BODY"
fi
# --cluster: the same calls by service name, resolved in WildFly's clustering registrar
CALLS_SERVICE=""
if $CLUSTER && [ "$CALLS" -gt 0 ]; then
    say "request/reply by service name across the cluster: $CALLS calls (POST /srq-demo/api/calls?to=service: connect(\"demo-peer\"))"
    http POST "$HTTP_BASE/calls?calls=$CALLS&threads=$CALL_THREADS&size=$SIZE&to=service" text/plain 120
    [ "$HTTP_STATUS" = 200 ] || fail "the by-name phase answered $HTTP_STATUS: $HTTP_BODY"
    CALLS_SERVICE="$HTTP_BODY"
    grep -h 'SRQRA0500\|SRQRA0502' "$LOG_B" | tail -n 2 | sed 's/^.*\(SRQRA05[0-9][0-9]\): /    \1: /'
fi
# --cluster: one server at a time delivers for the cluster singleton (srq-demo-singleton.war on both,
# clusterSingleton=true): the first server is elected; undeployed there mid-stream, the second takes over
CALLS_SINGLETON=""; CALLS_HANDOVER=""
cli_b() { # cli_b TIMEOUT ARGS...: jboss-cli connected to the second server (127.0.0.1:10090)
    local t="$1"; shift
    JAVA_OPTS="--sun-misc-unsafe-memory-access=allow" timeout "$t" "$CLI" -c --controller=127.0.0.1:10090 --timeout=10000 "$@"
}
if $CLUSTER && [ "$CALLS" -gt 0 ]; then
    [ -e "$TARGET/srq-demo-singleton.war" ] || fail "$TARGET/srq-demo-singleton.war is missing: build first (drop --skip-build)"
    say "cluster singleton: deploying srq-demo-singleton.war (SingletonResponder, clusterSingleton=true) on both servers"
    cli "$DEPLOY_TIMEOUT" --command="deploy $TARGET/srq-demo-singleton.war" > "$TARGET/demo-deploy-singleton.log" 2>&1 \
        && cli_b "$DEPLOY_TIMEOUT" --command="deploy $TARGET/srq-demo-singleton.war" >> "$TARGET/demo-deploy-singleton.log" 2>&1 \
        || { cat "$TARGET/demo-deploy-singleton.log" >&2; fail "deploying srq-demo-singleton.war failed"; }
    sleep 2
    grep -h 'SRQRA0511' "$LOG" | tail -n 1 | sed 's/^.*SRQRA0511: /    first server, SRQRA0511: /'
    grep -h 'SRQRA0509' "$LOG_B" | tail -n 1 | sed 's/^.*SRQRA0509: /    second server, SRQRA0509: /'
    say "cluster singleton: $CALLS calls by name (POST /srq-demo/api/calls?to=singleton: connect(\"demo-singleton\"))"
    http POST "$HTTP_BASE/calls?calls=$CALLS&threads=1&size=$SIZE&to=singleton" text/plain 120
    [ "$HTTP_STATUS" = 200 ] || fail "the singleton phase answered $HTTP_STATUS: $HTTP_BODY"
    CALLS_SINGLETON="$HTTP_BODY"
    # five times as many calls: they must outlast jboss-cli's start and the undeploy (a warm call takes ~0.1 ms)
    say "cluster singleton: $((CALLS * 5)) calls while srq-demo-singleton.war is undeployed on the first server (the primary)"
    ( http POST "$HTTP_BASE/calls?calls=$((CALLS * 5))&threads=1&size=$SIZE&to=singleton" text/plain 120
      printf '%s\n%s\n' "$HTTP_STATUS" "$HTTP_BODY" > "$TARGET/demo-handover.txt" ) &
    HANDOVER_PID=$!
    sleep 0.3
    cli "$DEPLOY_TIMEOUT" --command="undeploy srq-demo-singleton.war" >> "$TARGET/demo-deploy-singleton.log" 2>&1 \
        || say "(undeploying srq-demo-singleton.war on the first server failed: $TARGET/demo-deploy-singleton.log)"
    wait "$HANDOVER_PID"
    if [ "$(head -n 1 "$TARGET/demo-handover.txt")" = 200 ]; then
        CALLS_HANDOVER="$(tail -n +2 "$TARGET/demo-handover.txt")"
    else
        CALLS_HANDOVER="error=$(tail -n +2 "$TARGET/demo-handover.txt")"
    fi
    grep -h 'SRQRA0511' "$LOG_B" | tail -n 1 | sed 's/^.*SRQRA0511: /    second server, SRQRA0511: /'
fi
# calls_line BODY: one line of a request/reply phase's figures
calls_line() {
    [ -n "$1" ] || { echo skipped; return; }
    cf() { printf '%s\n' "$1" | awk -F= -v k="$2" '$1 == k { sub(/^[^=]*=/, ""); print; exit }'; }
    echo "$(cf "$1" calls) calls, $(cf "$1" threads) caller(s): $(cf "$1" callsPerSecond) calls/s, round trip p50 $(cf "$1" p50Us) us, p99 $(cf "$1" p99Us) us, p99.9 $(cf "$1" p999Us) us"
}

# handover_line BODY: the singleton phase during the primary's undeploy
handover_line() {
    [ -n "$1" ] || { echo skipped; return; }
    case "$1" in error=*) echo "FAILED: ${1#error=}"; return ;; esac
    cf() { printf '%s\n' "$1" | awk -F= -v k="$2" '$1 == k { sub(/^[^=]*=/, ""); print; exit }'; }
    echo "$(cf "$1" calls) calls in $(cf "$1" elapsedMs) ms, none failed; the longest call $(cf "$1" maxUs) us (the wait for the second server's election), p50 $(cf "$1" p50Us) us"
}

# ---------------------------------------------------------------- 6. report

http GET "$HTTP_BASE/report" text/plain
# what jboss-cli reads from the ejb3 statistics (totals since deployment, warm-up included)
CLI_OUT="$(cli 60 --commands='/deployment=srq-demo.war/subsystem=ejb3/message-driven-bean=DemoReceiver:read-attribute(name=invocations),/deployment=srq-demo.war/subsystem=ejb3/singleton-bean=LimitEventObserver:read-attribute(name=methods)' 2>/dev/null)" || CLI_OUT=""
MDB_INVOCATIONS="$(printf '%s\n' "$CLI_OUT" | awk -F'=> ' '/"result" => [0-9]/ { gsub(/[ L,]/, "", $2); print $2; exit }')"
LIMIT_INVOCATIONS="$(printf '%s\n' "$CLI_OUT" | awk -F'=> ' '/"onLimit" =>/ { m = 1 } m && /"invocations"/ { gsub(/[ L,]/, "", $2); print $2; exit }')"

echo
echo "==================================================================== srq demo"
printf '  %-26s %s\n' \
    "device" "$(field adapter.device) (SRQ '$(field adapter.srqName)' of the MDB's activation, listening at 10.0.0.1:7471)" \
    "cold run (first, cold JIT)" "sent $cold_SENT of $MESSAGES, delivered $cold_DELIVERED ($SIZE bytes, $CONNECTIONS connections); limit events $cold_LIMIT" \
    "  throughput" "$cold_TP" \
    "warm run (second)" "$( [ "$WARM" -gt 0 ] && echo "sent $warm_SENT of $WARM, delivered $warm_DELIVERED; limit events $warm_LIMIT" || echo "skipped (--warm 0)")" \
    "  throughput" "$( [ "$WARM" -gt 0 ] && echo "$warm_TP" || echo "-")" \
    "request/reply, cold" "$(calls_line "$CALLS_COLD") (EJB->MDB->EJB; each call an EJB invocation that takes a pooled connection)" \
    "request/reply, warm" "$(calls_line "$CALLS_WARM")" \
    "two servers (fabric)" "$($TWO && calls_line "$CALLS_PEER" || echo "not run (--two-servers: the same calls to a second server over libfabric's tcp)")" \
    "cluster, by service name" "$($CLUSTER && calls_line "$CALLS_SERVICE" || echo "not run (--cluster: the same calls by service name through WildFly's clustering registrar)")" \
    "cluster singleton" "$($CLUSTER && calls_line "$CALLS_SINGLETON" || echo "not run (--cluster: calls to a clusterSingleton MDB deployed on both servers)")" \
    "  handover at undeploy" "$($CLUSTER && handover_line "$CALLS_HANDOVER" || echo "-")" \
    "adapter statistics" "(since activation) posted $(field adapter.posted), completed $(field adapter.completed), delivered $(field adapter.delivered), errors $(field adapter.errorCompletions), limit events $(field adapter.limitEvents), fill $(field adapter.fill), outstanding $(field adapter.outstanding); connections closed after their last completions were polled $(field adapter.closedConnections), leaving now $(field adapter.leavingConnections)" \
    "jboss-cli (ejb3 statistics)" "DemoReceiver invocations ${MDB_INVOCATIONS:-?} (one per batch of up to 32 messages), LimitEventObserver.onLimit invocations ${LIMIT_INVOCATIONS:-?} (since deployment)" \
    "boot time" "$(secs "$BOOT_MS") (standalone.sh to WFLYSRV0025)" \
    "server log" "$LOG"
if [ -n "$cold_ERROR" ]; then printf '  %-26s %s\n' "error (cold run)" "$cold_ERROR"; fi
if [ "$WARM" -gt 0 ] && [ -n "$warm_ERROR" ]; then printf '  %-26s %s\n' "error (warm run)" "$warm_ERROR"; fi
echo "============================================================================"

# ---------------------------------------------------------------- 7. where an operator looks (issue 16)

# the subsystem rdma-srq of the Galleon layer (docs/operating.md): the server-wide settings and the live
# activations and definitions; the demo MDB's activation (srqName demo) with its figures; the /metrics lines
# of that activation (management interface, Prometheus text: counters typed as counters)
echo
say "jboss-cli: /subsystem=rdma-srq:read-resource(include-runtime=true)"
cli 60 --command="/subsystem=rdma-srq:read-resource(include-runtime=true)" 2>/dev/null | sed 's/^/    /' \
    || say "(the jboss-cli read failed)"
say "jboss-cli: /subsystem=rdma-srq/activation=demo:read-resource(include-runtime=true)"
cli 60 --command="/subsystem=rdma-srq/activation=demo:read-resource(include-runtime=true)" 2>/dev/null | sed 's/^/    /' \
    || say "(the jboss-cli read failed)"
say "GET http://127.0.0.1:9990/metrics, the lines of activation=\"demo\":"
if command -v curl >/dev/null; then
    METRICS="$(curl -sS -m 15 http://127.0.0.1:9990/metrics 2>/dev/null)" || METRICS=""
else
    METRICS="$(timeout 15 bash -c 'exec 3<>/dev/tcp/127.0.0.1/9990 || exit 1
        printf "GET /metrics HTTP/1.0\r\nHost: localhost:9990\r\n\r\n" >&3; cat <&3' 2>/dev/null | tr -d '\r')" || METRICS=""
fi
printf '%s\n' "$METRICS" | grep -E '^wildfly_rdma_srq_.*activation="demo"' | sed 's/^/    /' \
    || say "(no /metrics line for the activation demo)"
# the layer's connection definition (java:/eis/SrqConnectionFactory: what the demo's senders and callers use)
say "jboss-cli: /subsystem=rdma-srq/connection-definition=SrqConnectionFactory:read-resource(include-runtime=true)"
cli 60 --command="/subsystem=rdma-srq/connection-definition=SrqConnectionFactory:read-resource(include-runtime=true)" 2>/dev/null \
    | sed 's/^/    /' || say "(the jboss-cli read failed)"

# readiness (MicroProfile Health, which configure.cli adds): DOWN while an activation is not ACTIVE (the
# check srq-activations, registered by the subsystem rdma-srq)
say "GET http://127.0.0.1:9990/health/ready:"
if command -v curl >/dev/null; then
    curl -sS -m 15 http://127.0.0.1:9990/health/ready 2>/dev/null | sed 's/^/    /' || say "(the readiness read failed)"
    echo
fi

RC=0
if [ "$cold_STATE" != DONE ] || [ "$cold_DELIVERED" != "$cold_SENT" ] || [ "$cold_SENT" != "$MESSAGES" ]; then
    say "FAILED: cold run: state $cold_STATE, sent $cold_SENT of $MESSAGES, delivered $cold_DELIVERED"
    RC=1
elif [ "$WARM" -gt 0 ] && { [ "$warm_STATE" != DONE ] || [ "$warm_DELIVERED" != "$warm_SENT" ] || [ "$warm_SENT" != "$WARM" ]; }; then
    say "FAILED: warm run: state $warm_STATE, sent $warm_SENT of $WARM, delivered $warm_DELIVERED"
    RC=1
else
    say "OK: every message sent was delivered ($cold_DELIVERED$( [ "$WARM" -gt 0 ] && echo " + $warm_DELIVERED"))"
fi
if $KEEP; then
    STARTED_SERVER=false   # leave it running
    say "the server keeps running (pid $(cat "$BASE/wildfly.pid" 2>/dev/null || echo "?")):"
    say "  curl $HTTP_BASE/report ; curl -X POST '$HTTP_BASE/load?messages=100000&connections=8&size=64'"
    say "  stop it with: $CLI -c :shutdown"
fi
exit "$RC"
