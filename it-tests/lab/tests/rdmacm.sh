#!/bin/bash
# rping + ucmatose over rdma_cm on rxe0 (10.77.0.1), then ib_send_bw with and without --use-srq
A=${A:-10.77.0.1}
fail=0
echo "=== rping"
timeout -k 5 60 rping -s -a $A -v -C 10 > /tmp/rping-srv.log 2>&1 & S=$!
sleep 1
timeout 60 rping -c -a $A -C 10 -v; c=$?
wait $S; s=$?
echo "--- server:"; cat /tmp/rping-srv.log
echo "rping client rc=$c server rc=$s"; [ $c = 0 ] && [ $s = 0 ] || fail=1

echo "=== ucmatose -c 8"
timeout -k 5 120 ucmatose -b $A -c 8 -C 100 > /tmp/ucm-srv.log 2>&1 & S=$!
sleep 1
timeout 120 ucmatose -s $A -c 8 -C 100; c=$?
wait $S; s=$?
echo "--- server:"; cat /tmp/ucm-srv.log
echo "ucmatose client rc=$c server rc=$s"; [ $c = 0 ] && [ $s = 0 ] || fail=1

for extra in "" "--use-srq" "--use-srq -q 4" "-R"; do
  echo "=== ib_send_bw $extra"
  timeout -k 5 120 ib_send_bw -d rxe0 -x 1 -F $extra > /tmp/bw-srv.log 2>&1 & S=$!
  sleep 1
  if [ "$extra" = "-R" ]; then tgt=$A; else tgt=127.0.0.1; fi
  timeout 120 ib_send_bw -d rxe0 -x 1 -F $extra $tgt; c=$?
  wait $S; s=$?
  echo "--- server:"; cat /tmp/bw-srv.log
  echo "ib_send_bw $extra client rc=$c server rc=$s"; [ $c = 0 ] && [ $s = 0 ] || fail=1
done
exit $fail
