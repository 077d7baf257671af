#!/usr/bin/env bash
# Regenerates the FFM bindings under native/src/main/java/io/rdma/srq/verbs/ffi/ from the
# installed rdma-core / librpma headers with an installed jextract. The output is committed;
# the normal build never runs this. Never edit the generated files: change the *.includes list
# here and run this script again.
#
#   JEXTRACT_HOME=/path/to/jextract native/jextract/generate.sh [package ...]
#
# With packages named (ibverbs efa rdmacm rpma fabric), only those are regenerated.
# Needs: jextract (built from openjdk/jextract for JDK 25; no registry ships it), headers from
# Debian's libibverbs-dev, librdmacm-dev, librpma-dev and libfabric-dev (see README.md). A jextract
# linked with Debian's libclang finds clang's own headers (stdint.h, stddef.h) in Debian's resource
# directory; a second copy of them in the jextract image's conf/jextract shadows <stdint.h> (its
# include guard hides the system one), so such an image must not carry that copy.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../src/main/java"
: "${JEXTRACT_HOME:?set JEXTRACT_HOME to an installed jextract (its bin/jextract is run)}"
jextract="$JEXTRACT_HOME/bin/jextract"
[ -x "$jextract" ] || { echo "no executable $jextract" >&2; exit 2; }
include=${HEADER_DIR:-/usr/include}
# Generate from the OLDEST headers supported (rdma-core 44, Debian 12): a binding built on old
# headers runs on newer libraries (docs/driver-notes.md, note 15; GeneratedLayoutTest checks it on
# every release CI runs), a binding built on new headers may read fields an old library never fills.
oldest=44
have=$(dpkg-query -W -f='${Version}' libibverbs-dev 2>/dev/null | sed 's/\..*//')
if [ -n "$have" ] && [ "$have" != "$oldest" ] && [ "${GENERATE_FROM_NEWER:-0}" != 1 ]; then
  echo "libibverbs-dev is rdma-core $have; the bindings are generated from rdma-core $oldest's headers (the" >&2
  echo "oldest supported). Run this on Debian 12, or set GENERATE_FROM_NEWER=1 after raising the oldest" >&2
  echo "supported version in README.md and native/jextract/GENERATED_WITH." >&2
  exit 2
fi

# package  header-class  library-soname  include-list  header
bindings=(
  "ibverbs IbVerbs libibverbs.so.1 ibverbs.includes $include/infiniband/verbs.h"
  "efa     EfaDv   libefa.so.1     efa.includes     $include/infiniband/efadv.h"
  "rdmacm  RdmaCm  librdmacm.so.1  rdmacm.includes  $include/rdma/rdma_cma.h"
  "rpma    Rpma    librpma.so.0    rpma.includes    $include/librpma.h"
  "fabric  Fabric  libfabric.so.1  fabric.includes  $here/fabric.h"
)
wanted=" $* "

for b in "${bindings[@]}"; do
  read -r pkg cls lib list header <<<"$b"
  [ $# -eq 0 ] || [[ "$wanted" == *" $pkg "* ]] || continue
  [ -r "$header" ] || { echo "missing header $header (install the -dev packages)" >&2; exit 2; }
  target="$out/io/rdma/srq/verbs/ffi/$pkg"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # Libraries are looked up by soname (':' = a path for dlopen), so only the runtime packages
  # (libibverbs1, librdmacm1, librpma0, ibverbs-providers) are needed at run time.
  "$jextract" --output "$tmp" \
    --target-package "io.rdma.srq.verbs.ffi.$pkg" \
    --header-class-name "$cls" \
    --library ":$lib" \
    @"$here/$list" \
    "$header"
  # replace the package only when jextract succeeded
  rm -rf "$target"
  mkdir -p "$(dirname "$target")"
  mv "$tmp/io/rdma/srq/verbs/ffi/$pkg" "$target"
  rm -rf "$tmp"
  echo "generated io.rdma.srq.verbs.ffi.$pkg from $header ($(ls "$target" | wc -l) files)"
done
# GENERATED_WITH: what generated the output (rewritten) and what it is supported on (the
# "supported:" and "tested:" lines, kept as they were: they are decided by people, not by this script)
kept=$(grep -E '^(supported|tested):' "$here/GENERATED_WITH" 2>/dev/null || true)
{
  "$jextract" --version 2>&1 | head -3
  echo "headers: $(dpkg-query -W -f='${Package} ${Version}, ' libibverbs-dev librdmacm-dev librpma-dev libfabric-dev 2>/dev/null)"
  [ -z "$kept" ] || echo "$kept"
} > "$here/GENERATED_WITH.tmp"
mv "$here/GENERATED_WITH.tmp" "$here/GENERATED_WITH"
