#!/bin/bash
A=${A:-10.77.0.1}; fail=0
for extra in "--use-srq" "--use-srq -q 4" "--use-srq -q 8 -s 4096" "-c UD --use-srq -q 2 -s 1024" "-R --use-srq"; do
  echo "=== ib_send_bw $extra"
  timeout -k 5 120 ib_send_bw -d rxe0 -x 1 -F $extra > /tmp/bw-srv.log 2>&1 & S=$!
  sleep 1
  case "$extra" in -R*) tgt=$A;; *) tgt=127.0.0.1;; esac
  timeout 120 ib_send_bw -d rxe0 -x 1 -F $extra $tgt; c=$?
  wait $S; s=$?
  echo "--- server:"; cat /tmp/bw-srv.log
  echo "ib_send_bw $extra client rc=$c server rc=$s"; [ $c = 0 ] && [ $s = 0 ] || fail=1
done
echo "=== ib_send_lat --use-srq"
timeout -k 5 120 ib_send_lat -d rxe0 -x 1 -F --use-srq > /tmp/lat-srv.log 2>&1 & S=$!
sleep 1; timeout 120 ib_send_lat -d rxe0 -x 1 -F --use-srq 127.0.0.1; c=$?; wait $S; s=$?
echo "ib_send_lat --use-srq client rc=$c server rc=$s"; [ $c = 0 ] && [ $s = 0 ] || fail=1
exit $fail
