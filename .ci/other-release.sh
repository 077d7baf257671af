#!/usr/bin/env bash
# other-release.sh [CODENAME] : runs the README's test command on the *other* supported Debian
# release, in a debootstrap chroot of it, so every CI run proves both Debian 12 (bookworm:
# rdma-core 44, glibc 2.36) and Debian 13 (trixie: rdma-core 56, glibc 2.41).
#
#   - CODENAME defaults to the release this machine is not: bookworm on trixie, trixie on bookworm.
#   - The chroot gets the packages of .ci/packages through that release's apt-get (so the names
#     there are proven to resolve on it) plus that release's Maven; the JDK 25 (Temurin) and the
#     local Maven repository (~/.m2) are bind-mounted from this machine, the source tree is copied
#     in (no target/ directories), and the tests run against the chroot's libibverbs, librdmacm,
#     librpma, headers and gcc. The kernel is this machine's (a chroot shares it).
#   - The mirror is the one this machine's apt uses (its sources), the chroot lives outside the
#     repository in $OTHER_ROOT (default /var/tmp/rdma-srq-chroot/CODENAME) and is reused when its
#     package list is unchanged, except under CI=true, where it is always made anew.
#   - Everything mounted is unmounted on exit. Needs root (debootstrap, chroot, mount).
#
# Knobs: OTHER_ROOT, OTHER_TIMEOUT (seconds for the tests, default 1200), OTHER_MVN_ARGS (default
# "-B verify", i.e. the README's test command), JAVA_HOME (default the Temurin 25 path),
# OTHER_LAB_CLASSES (a regex of test class names: then it-tests/lab/run-lab.sh runs those classes in a
# guest booted with that release's kernel, one host; reports in it-tests/target/lab-reports-CODENAME),
# OTHER_LAB_TIMEOUT (seconds for that lab run, default 900).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
JDK=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
. /etc/os-release
HOST=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
case "${1:-}" in
  "") case "$HOST" in bookworm) REL=trixie ;; trixie) REL=bookworm ;;
        *) echo "other-release: this machine is Debian '$HOST'; supported: bookworm, trixie" >&2; exit 2 ;; esac ;;
  bookworm|trixie) REL=$1 ;;
  *) echo "other-release: CODENAME must be bookworm or trixie, got '$1'" >&2; exit 2 ;;
esac
ROOT=${OTHER_ROOT:-/var/tmp/rdma-srq-chroot/$REL}
say() { echo "other-release: $*" >&2; }
[ "$(id -u)" = 0 ] || { say "needs root (debootstrap, chroot, mount)"; exit 2; }
[ -x "$JDK/bin/java" ] || { say "no JDK at $JDK (set JAVA_HOME)"; exit 2; }

# The mirror this machine's apt uses for its own release (deb822 .sources or one-line format).
mirror() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -r "$f" ] || continue
    awk -v rel="$HOST" 'BEGIN{RS=""} /(^|\n)Types:[^\n]*deb([ \n]|$)/ && $0 ~ "Suites:[^\n]*" rel {
        if (match($0, /URIs:[ \t]*[^ \t\n]+/)) { u = substr($0, RSTART, RLENGTH); sub(/URIs:[ \t]*/, "", u); print u; exit } }' "$f"
  done
  grep -hsE "^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?[a-z]+://[^[:space:]]+[[:space:]]+$HOST[[:space:]]" \
    /etc/apt/sources.list /etc/apt/sources.list.d/*.list | sed -E 's/^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?//' | awk '{print $1}' || true
}
MIRROR=$(mirror | grep -v -- '-security' | head -1 || true)
[ -n "$MIRROR" ] || { say "found no apt source for '$HOST' to take the mirror from"; exit 2; }

mapfile -t PKGS < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$REPO/.ci/packages")
PKGS+=(maven)
STAMP="$REL ${PKGS[*]}"

cleanup() {
  for m in work/src root/.m2 "${JDK#/}" dev sys proc; do
    mountpoint -q "$ROOT/$m" 2>/dev/null && umount -R -l "$ROOT/$m" 2>/dev/null
  done
  return 0
}
# one run at a time per chroot: another run's cleanup would unmount this one's tree
mkdir -p "$(dirname "$ROOT")"
exec 9>"$ROOT.lock"
flock -w 1800 9 || { say "another run holds $ROOT.lock for 30 minutes; giving up"; exit 2; }
trap cleanup EXIT
# /proc, /sys and /dev (apt's maintainer scripts need them), the JDK read-only, the Maven repository
mount_all() {
  mkdir -p "$ROOT/proc" "$ROOT/sys" "$ROOT/dev" "$ROOT$JDK" "$ROOT/root/.m2" "$ROOT/work/src" "$HOME/.m2"
  mount -t proc proc "$ROOT/proc"
  mount --rbind /sys "$ROOT/sys"
  mount --rbind /dev "$ROOT/dev"
  mount --bind "$JDK" "$ROOT$JDK" && mount -o remount,bind,ro "$ROOT$JDK"
  mount --bind "$HOME/.m2" "$ROOT/root/.m2"
}

T0=$(date +%s)
if [ "${CI:-}" = true ] || [ "$(cat "$ROOT/.rdma-srq-stamp" 2>/dev/null)" != "$STAMP" ]; then
  command -v debootstrap >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
  cleanup
  # never rm -rf through a bind mount of /dev or ~/.m2
  if awk -v r="$ROOT/" 'index($2 "/", r) == 1 {found=1} END{exit !found}' /proc/mounts; then
    say "something is still mounted under $ROOT; not removing it"; exit 2
  fi
  rm -rf "$ROOT"; mkdir -p "$ROOT"
  say "debootstrap $REL into $ROOT"
  timeout 900 debootstrap --variant=minbase "$REL" "$ROOT" "$MIRROR" > "$ROOT.debootstrap.log" 2>&1 \
    || { tail -20 "$ROOT.debootstrap.log" >&2; say "debootstrap failed"; exit 2; }
  cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
  mount_all
  # the same install line as .ci/run, inside the other release
  chroot "$ROOT" /usr/bin/env DEBIAN_FRONTEND=noninteractive bash -c \
    "apt-get update -qq && apt-get install -y -qq --no-install-recommends ${PKGS[*]} >/dev/null" \
    || { say "apt-get install in the $REL chroot failed: ${PKGS[*]}"; exit 2; }
  echo "$STAMP" > "$ROOT/.rdma-srq-stamp"
fi
T1=$(date +%s)

mountpoint -q "$ROOT/proc" || mount_all
# The JDK is this machine's, bind-mounted: its lib/security/cacerts is a link to
# /etc/ssl/certs/java/cacerts, which resolves inside the chroot. The chroot gets this machine's trust
# stores (Java's and the PEM bundle), so Maven in it downloads what Maven here does — through a
# TLS-inspecting proxy too (a lab build fetches junit-platform-console-standalone on a fresh ~/.m2).
for f in /etc/ssl/certs/java/cacerts /etc/ssl/certs/ca-certificates.crt; do
  if [ -r "$f" ]; then mkdir -p "$ROOT$(dirname "$f")" && cp -L "$f" "$ROOT$f"; fi
done
rm -rf "$ROOT/work/src"; mkdir -p "$ROOT/work/src"
tar -C "$REPO" --exclude=./.git --exclude='./target' --exclude='./*/target' --exclude='./*/*/target' -cf - . \
  | tar -C "$ROOT/work/src" -xf -

chroot "$ROOT" /usr/bin/env HOME=/root bash /work/src/.ci/versions.sh "$REL (chroot)"
say "running the README's test command on $REL: JAVA_HOME=$JDK mvn ${OTHER_MVN_ARGS:--B verify}"
set +e
chroot "$ROOT" /usr/bin/env HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin JAVA_HOME="$JDK" \
  timeout -k 10 "${OTHER_TIMEOUT:-1200}" bash -c "cd /work/src && mvn ${OTHER_MVN_ARGS:--B verify}"
rc=$?
T2=$(date +%s)
# OTHER_LAB_CLASSES (a regex of test class names): then the rxe lab runs those classes on this
# release's kernel too (6.12 on trixie, 6.1 on bookworm), one host, from the chroot (qemu runs there)
if [ $rc = 0 ] && [ -n "${OTHER_LAB_CLASSES:-}" ]; then
  say "the rxe lab on $REL's kernel, classes ${OTHER_LAB_CLASSES}"
  chroot "$ROOT" /usr/bin/env HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin JAVA_HOME="$JDK" \
    LAB_TWOHOST=0 LAB_JUNIT_ARGS="--include-classname=${OTHER_LAB_CLASSES}" \
    timeout -k 10 "${OTHER_LAB_TIMEOUT:-900}" bash -c "cd /work/src && it-tests/lab/run-lab.sh"
  rc=$?
  mkdir -p "$REPO/it-tests/target"
  rm -rf "$REPO/it-tests/target/lab-reports-$REL"
  cp -r "$ROOT/work/src/it-tests/target/lab-reports" "$REPO/it-tests/target/lab-reports-$REL" 2>/dev/null || true
fi
set -e
say "$REL: setup $((T1 - T0)) s, tests $((T2 - T1)) s, lab $(( $(date +%s) - T2 )) s, exit code $rc"
exit $rc
