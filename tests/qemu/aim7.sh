# bench=aim7 (workloads/aim7.c): the job counts from workfile.shared's hits
# and driver.c's rounding (jobs=100: 97 per user with the disk tests as
# sleeps; 113 with disk=drop, the 630 other hits renormalised -- both
# counted by hand from the workfile), every job done, the JTI within its
# range (100 with one user), jobs_per_min as N x jobs x 60 / time_s, a
# corrupted IPC message caught (status=error, exit 1), malformed
# parameters (one error: line, exit 1) and out of memory (status=oom, exit 4).
. "$(dirname "$0")/../lib.sh"
plan 25

line() { results aim7 | grep " users=$1 " | head -1; }

boot cfs 2 "bench=aim7 users=1,3" 256 90
check aim7-exit0 [ "$RC" = 0 ]
l1=$(line 1) l3=$(line 3)
check aim7-jobs-per-user [ "$(field jobs_per_user "$l1")" = 97 ]
check aim7-all-jobs-done [ "$(field jobs_done "$l1")/$(field jobs_done "$l3")" = 97/291 ]
check aim7-jti-one-user [ "$(field jti "$l1")" = 100 ]
j=$(field jti "$l3")
check aim7-jti-range in_range "$j" -100 100
# jobs_per_min = 291 x 60 / time_s, to the precision time_s is printed with (3 decimals)
check aim7-jpm-formula awk -v j="$(field jobs_per_min "$l3")" -v t="$(field time_s "$l3")" \
    'BEGIN { e = 291 * 60 / t; exit !(j > 0 && (j - e) / e < 0.01 && (e - j) / e < 0.01) }'
expect aim7-peak-line '^aim7: run=0 peak_jobs_per_min=[0-9.]+ peak_users=[13]$'

boot rr 1 "bench=aim7 users=2 disk=drop" 256 60
check aim7-drop-exit0 [ "$RC" = 0 ]
check aim7-drop-renormalised [ "$(field jobs_per_user "$(line 2)")" = 113 ]

boot o1 2 "bench=aim7 users=2 corrupt=1" 256 60
check aim7-corrupt-exit1 [ "$RC" = 1 ]
expect aim7-corrupt-caught '^result bench=aim7 .* status=error reason=ipc_corrupt'

for bad in users=0 users=1,x jobs=0 workfile=compute disk=maybe work=0; do
    tag="aim7-bad-$(echo "$bad" | tr -c 'a-z0-9\n' '-')"
    boot rr 1 "bench=aim7 $bad" 64 30
    check "$tag" [ "$RC" = 1 ]
    expect "$tag-says" "^error: ${bad%%=*}="
done

boot rr 1 "bench=aim7 users=2000" 32 60
check aim7-oom-exit4 [ "$RC" = 4 ]
expect aim7-oom-status '^result bench=aim7 .* status=oom'
