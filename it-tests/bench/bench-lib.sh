# bench-lib.sh: what the benchmark scripts share (side-by-side.sh, two-servers.sh: the WildFly ones;
# fabric-round-trip.sh, fabric-message-rate.sh: bench_rar_classpath only); sourced. The WildFly
# functions need REPO, OUT, BUILD and the functions say and die.
#
# bench_rar_classpath [--skip-build]: (installs api, native and rar unless --skip-build, then)
#   compiles rar's test sources and prints the class path of their mains (run from the repository root)
# bench_build: builds deployment/ and the bench war (unless BUILD=false), then checks they are there;
#   sets WILDFLY, WAR, CLI
# bench_configure BASE NAME CLI_FILE...: a fresh server base dir BASE (a copy of deployment's pristine
#   standalone/) whose standalone-full.xml the CLI files configure offline, in order; logs in
#   $OUT/configure-NAME.*
# bench_boot BASE OFFSET NAME: starts WildFly (standalone-full, port offset OFFSET, JVM -Xms2g -Xmx2g
#   and SERVER_JAVA_OPTS) on BASE, waits for its boot (dies on a failed one); sets BOOTED_PID
# bench_cli MGMT_PORT COMMAND: one jboss-cli command on a running server (output in $OUT/cli.log)
# bench_locked FUNCTION: runs FUNCTION in a subshell holding /tmp/wildfly.lock (WildFly's ports are
#   shared on this machine), dies when it fails
# bench_results HEADING_PREFIX: prints $OUT/summary.md and, unless RESULTS=false, puts it into
#   RESULTS.md in place of the section whose heading starts with "## HEADING_PREFIX"
# post_to BASE_URL PATH QUERY: POST, the answer's key=value lines on stdout; fails (and says so on
#   stderr) on a non-200
# field KEY TEXT: the value of KEY=... in TEXT
# stats / one / ratio / med: medians and ranges over a results file of "round=R key=value ..." lines
post_to() {
  local body code
  body=$(curl -sS -m 900 -X POST -w '\n%{http_code}' "$1/$2?$3") || return 1
  code=${body##*$'\n'}; body=${body%$'\n'*}
  [ "$code" = 200 ] || { echo "POST $1/$2?$3 answered $code: $body" >&2; return 1; }
  printf '%s\n' "$body"
}
field() { sed -n "s/^$1=//p" <<< "$2"; }
# stats FILE KEY=VALUE-FILTER... FIELD: "median (min–max)" of FIELD over the rounds 1..ROUNDS matching
stats() {
  local file=$1 fieldname=$2; shift 2
  grep -E '^round=[0-9]+ ' "$file" | awk -v f="$fieldname" -v filters="$*" '
    BEGIN { n = split(filters, fl, " ") }
    { delete kv; for (i = 1; i <= NF; i++) { split($i, p, "="); kv[p[1]] = p[2] }
      ok = 1; for (j = 1; j <= n; j++) { split(fl[j], q, "="); if (kv[q[1]] != q[2]) ok = 0 }
      if (ok) v[m++] = kv[f] + 0 }
    END { if (m == 0) { print "n/a"; exit }
          asort(v); med = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
          frac = 0; for (k = 1; k <= m; k++) if (v[k] != int(v[k])) frac = 1
          fmt = (v[m] >= 100 || !frac) ? "%.0f" : "%.1f"
          printf(fmt " (" fmt "–" fmt ")", med, v[1], v[m]) }'
}
one() { # one FILE ROUND CASE FIELD: FIELD of that single run
  grep -E "^round=$2 case=$3 " "$1" | tr ' ' '\n' | sed -n "s/^$4=//p" | head -1
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.3g", a / b; else print "n/a" }'; }
med() { stats "$@" | cut -d' ' -f1; }

bench_build() {
  WILDFLY=$REPO/deployment/target/wildfly
  WAR=$REPO/it-tests/bench/app/target/srq-bench.war
  CLI="$WILDFLY/bin/jboss-cli.sh"
  if $BUILD; then
    say "building deployment/ and the bench war"
    mvn -B -q ${MVN_ARGS:-} -f "$REPO/pom.xml" -pl deployment,it-tests/bench/app -am package -DskipTests \
      > "$OUT/build.log" 2>&1 || die "build failed; see $OUT/build.log"
  fi
  local f
  for f in "$WILDFLY/bin/standalone.sh" "$REPO/deployment/target/srq-rar.rar" "$WAR" \
           "$REPO/deployment/target/standalone-pristine/configuration/standalone-full.xml"; do
    [ -e "$f" ] || die "$f is missing: run without --skip-build"
  done
}
bench_configure() {
  local base=$1 name=$2; shift 2
  rm -rf "$base" && mkdir -p "$(dirname "$base")" \
    && cp -a "$REPO/deployment/target/standalone-pristine" "$base" || die "cannot make $base"
  { echo "embed-server --std-out=discard --server-config=standalone-full.xml"
    cat "$@"
    echo "stop-embedded-server"; } > "$OUT/configure-$name.cli"
  JBOSS_HOME="$WILDFLY" JAVA_OPTS="-Djboss.server.base.dir=$base --sun-misc-unsafe-memory-access=allow" \
    timeout 180 "$CLI" --file="$OUT/configure-$name.cli" --resolve-parameter-values \
    --properties="$REPO/deployment/src/main/cli/srq.properties" -Dsrq.rar.path="$REPO/deployment/target/srq-rar.rar" \
    > "$OUT/configure-$name.log" 2>&1 || die "offline configuration of $name failed; see $OUT/configure-$name.log"
  [ -f "$base/log/server.log" ] && mv "$base/log/server.log" "$base/log/configure-embedded.log"
}
bench_boot() {
  local base=$1 offset=$2 name=$3
  JAVA_OPTS="-Xms2g -Xmx2g -XX:MetaspaceSize=96M -XX:MaxMetaspaceSize=512m -Djava.net.preferIPv4Stack=true -Djava.awt.headless=true -Djboss.modules.system.pkgs=org.jboss.byteman --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED ${SERVER_JAVA_OPTS:-}" \
    nohup "$WILDFLY/bin/standalone.sh" -c standalone-full.xml -Djboss.server.base.dir="$base" \
    -Djboss.socket.binding.port-offset="$offset" -Djboss.node.name="bench-$name" \
    > "$OUT/console-$name.log" 2>&1 < /dev/null &
  BOOTED_PID=$!
  local _
  for _ in $(seq 240); do
    grep -qE 'WFLYSRV0025|WFLYSRV0026' "$base/log/server.log" 2>/dev/null && break
    kill -0 "$BOOTED_PID" 2>/dev/null || die "WildFly $name exited; see $OUT/console-$name.log"
    sleep 0.5
  done
  grep -q WFLYSRV0025 "$base/log/server.log" || die "WildFly $name did not boot cleanly; see $base/log/server.log"
}
bench_cli() {
  JAVA_OPTS="--sun-misc-unsafe-memory-access=allow" timeout 180 "$CLI" -c --controller=127.0.0.1:"$1" --command="$2" \
    >> "$OUT/cli.log" 2>&1
}
bench_rar_classpath() {
  if [ "${1:-}" != "--skip-build" ]; then
    mvn -B -q install -DskipTests -Dmaven.javadoc.skip=true -pl api,native,rar -am >&2 || return 1
  fi
  mvn -B -q -o -pl rar test-compile org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test -Dmaven.javadoc.skip=true >&2 || return 1
  echo "rar/target/test-classes:rar/target/classes:$(cat rar/target/bench.classpath)"
}
bench_locked() {
  say "waiting for /tmp/wildfly.lock"
  exec 8>/tmp/wildfly.lock
  flock 8
  ( "$1" ) || die "the server part failed; see the server logs under it-tests/target"
  flock -u 8
}
bench_results() {
  cat "$OUT/summary.md"
  if $RESULTS; then
    local r=$REPO/it-tests/bench/RESULTS.md
    awk -v h="## $1" 'index($0, h) == 1 {skip = 1; next} skip && /^## / {skip = 0} !skip' "$r" > "$OUT/RESULTS.rest"
    { cat "$OUT/RESULTS.rest"; echo; cat "$OUT/summary.md"; } | cat -s > "$r"
    say "RESULTS.md updated"
  fi
}
