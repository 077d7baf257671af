#!/bin/bash
# build-classpath.sh DIR : on the host (never in the guest), builds api, native and rar (mvn install
# -DskipTests) and snapshots what the guest's JVMs need into DIR, so a concurrent rebuild of */target
# or ~/.m2 cannot change a run:
#   DIR/{native,rar}-classes, DIR/{native,rar}-test-classes   the modules' classes and test classes
#   DIR/lib/*.jar                    every test-scope jar of native and rar (srq-native's own jar
#                                    left out: its classes dirs are on the path)
#   DIR/classpath.txt                the whole class path, ':'-separated (dirs first)
#   DIR/junit-platform-console-standalone.jar
# Used by run-lab.sh (the JUnit run) and the benchmarks (it-tests/bench/run-benchmarks.sh).
# Knobs: LAB_MVN_ARGS (extra Maven args, e.g. -o), LAB_BUILD_TIMEOUT (s per Maven call, 900),
#        JAVA_HOME (a JDK 25; default Temurin 25). Exit code 2 on any failure.
set -u
CPD=${1:?usage: build-classpath.sh DIR}
LAB=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$LAB/../.." && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JUNIT_CONSOLE=org.junit.platform:junit-platform-console-standalone:6.1.3
DEP_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.9.0
say() { echo "build-classpath: $*" >&2; }
die() { say "$*"; exit 2; }
# Maven's guava calls sun.misc.Unsafe: keep JDK 25's warnings about it out of the log
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
mvn_() {   # Debian's mvn prints ANSI resets even in batch mode: strip them
  timeout -k 10 "${LAB_BUILD_TIMEOUT:-900}" mvn -B -q -Dstyle.color=never ${LAB_MVN_ARGS:-} "$@" 2>&1 | sed -u 's/\x1b\[[0-9;]*m//g'
  return "${PIPESTATUS[0]}"
}

say "building native and rar (mvn -pl rar -am install -DskipTests)"
mvn_ -f "$REPO/pom.xml" -pl rar -am install -DskipTests || die "host build failed (rc=$?)"
rm -rf "$CPD.tmp"; mkdir -p "$CPD.tmp/lib"
for m in native rar; do
  mvn_ -f "$REPO/$m/pom.xml" "$DEP_PLUGIN:build-classpath" -Dmdep.includeScope=test \
    -Dmdep.outputFile="$CPD.tmp/m2-classpath-$m.txt" || die "dependency:build-classpath of $m failed"
  cp -a "$REPO/$m/target/classes" "$CPD.tmp/$m-classes" || die "no $m/target/classes"
  cp -a "$REPO/$m/target/test-classes" "$CPD.tmp/$m-test-classes" || die "no $m/target/test-classes"
done
mvn_ -f "$REPO/native/pom.xml" "$DEP_PLUGIN:copy" -Dartifact="$JUNIT_CONSOLE" \
  -DoutputDirectory="$CPD.tmp" -Dmdep.stripVersion=true || die "cannot resolve $JUNIT_CONSOLE"
cp_=("$CPD/native-classes" "$CPD/native-test-classes" "$CPD/rar-classes" "$CPD/rar-test-classes")
IFS=: read -ra JARS < <(cat "$CPD.tmp"/m2-classpath-*.txt | tr '\n' ':')
for j in "${JARS[@]}"; do
  [ -n "$j" ] || continue
  case "$(basename "$j")" in srq-native-*.jar) continue;; esac
  [ -e "$CPD.tmp/lib/$(basename "$j")" ] && continue
  cp "$j" "$CPD.tmp/lib/" || die "cannot copy $j"
  cp_+=("$CPD/lib/$(basename "$j")")
done
(IFS=:; echo "${cp_[*]}") > "$CPD.tmp/classpath.txt"
rm -rf "$CPD"; mv "$CPD.tmp" "$CPD"
[ -s "$CPD/junit-platform-console-standalone.jar" ] || die "console launcher jar missing"
say "class path in $CPD ($(ls "$CPD/lib" | wc -l) jars)"
