# bench=volano (workloads/volano.c): the counts (sent R x 20 x M, received
# R x 20 x 19 x M), integrity (a corrupted or dropped message of user 0 is
# caught: status=error, exit 1), malformed parameters (one error: line, exit
# 1) and out of memory (status=oom, exit 4).
. "$(dirname "$0")/../lib.sh"
plan 31

v() { field "$1" "$(results volano | head -1)"; }

boot cfs 2 "bench=volano rooms=2 messages=20 runs=2" 256 90
check volano-cfs-exit0 [ "$RC" = 0 ]
check volano-cfs-two-runs [ "$(results volano | grep -c ' status=ok')" = 2 ]
check volano-cfs-sent [ "$(v sent)" = 800 ]
check volano-cfs-received [ "$(v received)" = 15200 ]
check volano-cfs-tasks [ "$(v tasks_started)" = 160 ]
check volano-cfs-rate [ "$(v messages_per_s)" -gt 0 ]
expect volano-cfs-cost-recorded '^result bench=volano .* cost=none '

boot rr 1 "bench=volano rooms=1 messages=5 datasize=64 sockbuf=4096" 256 60
check volano-rr-exit0 [ "$RC" = 0 ]
check volano-rr-counts [ "$(v sent)/$(v received)" = 100/1900 ]

boot o1 2 "bench=volano rooms=1 messages=10 corrupt=3" 256 60
check volano-corrupt-exit1 [ "$RC" = 1 ]
expect volano-corrupt-caught '^result bench=volano .* status=error reason=server_corrupt_message'

boot o1 2 "bench=volano rooms=1 messages=10 drop=2" 256 60
check volano-drop-exit1 [ "$RC" = 1 ]
expect volano-drop-caught '^result bench=volano .* status=error reason=server_corrupt_message'

for bad in rooms=0 rooms=2x messages=0 datasize=4 datasize=2000 corrupt=101 drop=101 sockbuf=100; do
    boot rr 1 "bench=volano $bad" 64 30
    check "volano-bad-${bad%%=*}-$(echo "${bad#*=}" | tr -cd 'a-z0-9')" [ "$RC" = 1 ]
    expect "volano-bad-${bad%%=*}-$(echo "${bad#*=}" | tr -cd 'a-z0-9')-says" "^error: ${bad%%=*}="
done

boot rr 1 "bench=volano rooms=1000 messages=1" 32 60
check volano-oom-exit4 [ "$RC" = 4 ]
expect volano-oom-status '^result bench=volano .* status=oom'
