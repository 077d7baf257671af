#!/usr/bin/env bash
# versions.sh [LABEL] : one line with what a test run ran on: Debian release, kernel, glibc,
# rdma-core (libibverbs1), librpma and Maven. .ci/run prints it for this machine and for the
# chroot of the other release (where the kernel is the host's: a chroot shares it).
set -u
. /etc/os-release
pkg() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null | head -1; }
glibc=$(pkg libc6); rdma=$(pkg libibverbs1); rpma=$(pkg librpma0)
mvn=$(mvn -B -v 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' | sed -n 's/^Apache Maven \([^ ]*\).*/\1/p' | head -1)
echo "${1:-host}: ${PRETTY_NAME:-unknown}, kernel $(uname -r), glibc ${glibc:-?}, rdma-core ${rdma:-not installed}, librpma ${rpma:-not installed}, Maven ${mvn:-none}"
