# Scheduler traces for tools/schedlab (sourced by it; POSIX sh):
#
#   tools/schedlab trace --sched S --smp N --bench W [workload flags] --out DIR
#       [--events LIST] [--buf-kib N] [--arrows] [--color auto|task|group]
#       one traced boot: DIR/trace.txt, trace.dat, timeline.svg, timeline.html,
#       latency.txt, summary.txt, summary.csv, rq.csv, report.html, and the
#       run's results.csv, logs/...
#   tools/schedlab run ... --trace-boot NAME [--trace-events LIST] [--trace-buf-kib N]
#       the same for one chosen boot of a matrix (NAME as in DIR/jobs.txt,
#       e.g. o1-smp2-boot1, or "first"), into DIR/traces/NAME/
#
# The kernel records with trace=1 (docs/tracing.md) and writes its buffers
# on a channel of its own (tools/qemu-run.sh --trace-out); schedlab-tool
# trace turns them into the files above.

TRACE_BOOT="" TRACE_WORDS="" TRACE_DIR="" TRACE_TOOL_ARGS=""

# trace_param KEY VALUE HOW: a trace key of run (trace_events=, trace_buf_kib=)
# goes to the traced boot only; true when it was one.
in_list() {   # in_list WORD LIST...: WORD is one of LIST
    w=$1; shift
    for x in "$@"; do [ "$x" = "$w" ] && return 0; done
    return 1
}

trace_param() {
    case "$1" in
    trace) usage_error "$3: tracing is turned on for one boot with --trace-boot NAME (tools/schedlab trace for a single boot)" ;;
    trace_events|trace_buf_kib) ;;
    *) return 1 ;;
    esac
    case " $TRACE_WORDS " in *" $1="*) usage_error "--$(echo "$1" | tr _ -) given twice" ;; esac
    case "$2" in ''|*[!A-Za-z0-9_,]*) usage_error "$3: expected letters, digits, '_' and ','" ;; esac
    TRACE_WORDS="$TRACE_WORDS $1=$2"
    return 0
}

# After bench=list is read: the trace keys against the kernel's own table,
# and the boot name against the matrix (before anything boots or DIR is touched).
trace_check_params() {
    if [ -z "$TRACE_BOOT" ]; then
        [ -z "$TRACE_WORDS" ] || usage_error "--trace-events and --trace-buf-kib need --trace-boot NAME"
        return 0
    fi
    [ -n "$(key_field "$LIST" kernel trace type)" ] || die "this kernel has no trace= key (built before tracing existed?)"
    for word in $TRACE_WORDS; do
        key=${word%%=*} val=${word#*=}
        how="--$(echo "$key" | tr _ -) $val"
        case "$key" in
        trace_buf_kib)
            check_value "$how" kernel trace_buf_kib "$val"
            [ $((val % 4)) -eq 0 ] || usage_error "$how: a multiple of 4 (whole pages)" ;;
        trace_events)
            choices=$(key_field "$LIST" kernel trace_events choices)
            for x in $(echo "$val" | tr , ' '); do
                case "|$choices|" in *"|$x|"*) ;; *) usage_error "$how: expected a comma list of $choices" ;; esac
            done ;;
        esac
    done
    [ "$TRACE_BOOT" = first ] && return 0
    case "$TRACE_BOOT" in *[!A-Za-z0-9_.=,-]*|'') usage_error "--trace-boot $TRACE_BOOT: not a boot name" ;; esac
    b=${TRACE_BOOT##*-boot} s=${TRACE_BOOT%%-smp*} rest=${TRACE_BOOT#*-smp}
    n=${rest%%[!0-9]*}
    if ! is_uint "$b" || [ "$b" -lt 1 ] || [ "$b" -gt "$BOOTS" ] || ! in_list "$s" $SCHED_LIST ||
        ! in_list "$n" $(echo "$SMPS" | tr , ' '); then
        usage_error "--trace-boot $TRACE_BOOT: not a boot of this matrix (names are SCHED-smpN-bootB, e.g. ${SCHED_LIST%% *}-smp${SMPS%%,*}-boot1, or first)"
    fi
}

# Once jobs.txt is written: the boot that is traced, and where its files go.
trace_setup_boot() {
    [ -n "$TRACE_BOOT" ] || return 0
    [ "$TRACE_BOOT" = first ] && TRACE_BOOT=$(sed -n '1s/ .*//p' "$OUT/jobs.txt")
    grep -q "^$TRACE_BOOT " "$OUT/jobs.txt" ||
        usage_error "--trace-boot $TRACE_BOOT: no such boot (see $OUT/jobs.txt)"
    [ -n "$TRACE_DIR" ] || TRACE_DIR="$OUT/traces/$TRACE_BOOT"
    mkdir -p "$TRACE_DIR" || die "cannot create $TRACE_DIR"
    echo "trace: boot $TRACE_BOOT with trace=1$TRACE_WORDS, files in $TRACE_DIR" >>"$OUT/meta.txt"
}

# The extra command-line words and qemu-run.sh flag of a boot (empty unless it is the traced one).
trace_words_for() { [ -n "$TRACE_BOOT" ] && [ "$1" = "$TRACE_BOOT" ] && printf ' trace=1%s' "$TRACE_WORDS"; }
trace_out_for() { [ -n "$TRACE_BOOT" ] && [ "$1" = "$TRACE_BOOT" ] && printf '%s' "$TRACE_DIR/trace.bin"; }

# After the matrix: the traced boot's stream into its files, checked against its console.
trace_after_run() {
    [ -n "$TRACE_BOOT" ] || return 0
    log="$OUT/logs/$TRACE_BOOT.log"
    if [ ! -s "$TRACE_DIR/trace.bin" ]; then
        echo "schedlab: trace: boot $TRACE_BOOT wrote no trace (see $log)" >&2
        return 1
    fi
    # shellcheck disable=SC2086  # TRACE_TOOL_ARGS: fixed words set by trace_cmd
    "$TOOL" trace "$TRACE_DIR/trace.bin" --out "$TRACE_DIR" --title "$TRACE_BOOT: $CMDLINE" $TRACE_TOOL_ARGS \
        >"$TRACE_DIR/files.txt" || return 1
    "$TOOL" trace-check "$TRACE_DIR/trace.bin" --text "$TRACE_DIR/trace.txt" --log "$log" >"$TRACE_DIR/check.txt"
    rc=$?
    grep '^trace: cpu [0-9]* dropped ' "$TRACE_DIR/check.txt" | sed 's/^/schedlab: /' >&2
    tail -1 "$TRACE_DIR/check.txt" | sed 's/^/schedlab: /' >&2
    [ $rc -eq 0 ] || echo "schedlab: trace: the trace breaks an invariant (see $TRACE_DIR/check.txt)" >&2
    echo "schedlab: trace of $TRACE_BOOT in $TRACE_DIR: trace.txt (Perfetto UI), trace.dat (trace-cmd report, KernelShark), timeline.html, latency.txt, summary.txt" >&2
    return $rc
}

# The report's section: every trace of a results directory (DIR itself, DIR/traces/*).
trace_report_section() {   # (its variables are tr_*: it runs inside report_cmd, which has its own)
    tr_dirs=""
    [ -f "$1/timeline.svg" ] && tr_dirs="$1"
    for tr_d in "$1"/traces/*; do
        [ -f "$tr_d/timeline.svg" ] && tr_dirs="$tr_dirs
$tr_d"
    done
    [ -n "$tr_dirs" ] || return 0
    echo '<h2 id="traces">Scheduler traces</h2><p>What ran on each CPU of a traced boot (wheel: zoom, drag: pan,'
    echo 'double-click: whole trace); trace.txt and trace.dat beside it open in the Perfetto UI and KernelShark.</p>'
    i=0
    printf '%s\n' "$tr_dirs" | while IFS= read -r tr_d; do
        [ -n "$tr_d" ] || continue
        i=$((i + 1))
        echo "<h3>$(basename "$(cd "$tr_d" && pwd)" | html_escape)</h3>"
        # The SVG inline (its script needs that), with ids of its own in this page.
        sed -e '1{/^<?xml/d}' -e "s/\"timeline\"/\"timeline$i\"/; s/timeline-\(clip\|nodata\)/timeline$i-\1/g; s/getElementById('timeline')/getElementById('timeline$i')/" \
            "$tr_d/timeline.svg"
        # per-CPU utilisation over time (schedlab-tool trace: heatmap.svg, trace_heatmap.c)
        [ -f "$tr_d/heatmap.svg" ] && { echo '<figure class="heatmap">'; cat "$tr_d/heatmap.svg"; echo '</figure>'; }
        # a table as a table (the report has no <pre>); perf sched latency's text stays in its file
        [ -f "$tr_d/summary.csv" ] && { echo "<p>Per CPU (summary.csv):</p>"; "$TOOL" html-table "$tr_d/summary.csv"; }
        [ -f "$tr_d/latency.txt" ] && echo "<p>Per task wake-up latency as perf sched latency prints it: <code>$(printf '%s' "$tr_d" | html_escape)/latency.txt</code>.</p>"
    done
}

# tools/schedlab trace: one boot of run, traced, its files in DIR itself.
trace_cmd() {
    sched="" smp=1 tdir="" TRACE_TOOL_ARGS=""
    for a in "$@"; do
        case "$a" in -h|--help) trace_help; exit 0 ;; esac
    done
    set -- "$@" --end-of-trace-args
    while [ "$1" != --end-of-trace-args ]; do
        case "$1" in
        --*=*) opt=${1%%=*}; val=${1#*=}; shift; set -- "$opt" "$val" "$@"; continue ;;
        --arrows) TRACE_TOOL_ARGS="$TRACE_TOOL_ARGS --arrows"; shift; continue ;;
        --force) set -- "$@" --force; shift; continue ;;
        --quiet) SCHEDLAB_QUIET=1; shift; continue ;;
        esac
        [ "$2" != --end-of-trace-args ] || usage_error "$1 needs a value"
        case "$1" in
        --sched) sched=$2 ;;
        --smp) smp=$2 ;;
        --out) tdir=$2 ;;
        --events) set -- "$@" --trace-events "$2" ;;
        --buf-kib) set -- "$@" --trace-buf-kib "$2" ;;
        --color)
            case "$2" in auto|task|group) ;; *) usage_error "--color $2: expected auto, task or group" ;; esac
            TRACE_TOOL_ARGS="$TRACE_TOOL_ARGS --color $2" ;;
        --runs|--boots) [ "$2" = 1 ] || usage_error "$1 $2: a trace is of one run in one boot" ;;
        *) set -- "$@" "$1" "$2" ;;
        esac
        shift 2
    done
    shift   # --end-of-trace-args; what is left goes to run
    case "$sched" in ''|*,*) usage_error "trace needs one scheduler: --sched S" ;; esac
    case "$smp" in ''|*,*|*[!0-9]*) usage_error "trace needs one vCPU count: --smp N" ;; esac
    [ -n "$tdir" ] || usage_error "trace needs --out DIR"
    TRACE_DIR=$tdir
    ( run_matrix --sched "$sched" --smp "$smp" --out "$tdir" --trace-boot first "$@" )
    rc=$?
    [ $rc -le 1 ] || exit $rc
    [ -f "$tdir/trace.txt" ] || exit 1
    report_cmd "$tdir" >/dev/null 2>&1 && echo "schedlab: report with the timeline: $tdir/report.html" >&2
    exit $rc
}

trace_help() {
    cat <<'EOF'
trace      one boot, traced: a timeline of which task ran on which CPU and when it was woken
  --sched S --smp N --bench W [any flag of run: workload keys, --accel, --mem, --timeout...]
  --out DIR           results directory (new or empty)                            [required]
  --events LIST       trace_events=: switch,wakeup,wakeup_new,migrate,fork,exit,sched or all [all]
  --buf-kib N         trace_buf_kib=: ring buffer per CPU, KiB (64 bytes an event;
                      when full the oldest are dropped and counted)               [1024]
  --arrows            draw wake-ups on the timeline (waker's CPU -> where the task ran)
  --color MODE        auto (hackbench: by group), task, group                     [auto]
  --quiet             no status line while the boot runs (run's)
  Writes DIR/trace.txt (ftrace text; the Perfetto UI opens it), DIR/trace.dat (trace-cmd report,
  KernelShark), DIR/timeline.html and .svg (zoomable, self-contained), DIR/latency.txt (perf sched
  latency, perf sched map), DIR/summary.txt/.csv (per CPU: busy, idle, switches, wake-ups,
  migrations, run-queue length), DIR/rq.csv, DIR/report.html, and the run's results.csv, logs/.
  run ... --trace-boot NAME [--trace-events LIST] [--trace-buf-kib N] traces one boot of a matrix
  (NAME as in DIR/jobs.txt, or first) into DIR/traces/NAME/.  docs/tracing.md explains it all.

trace-png DIR [--from MS --to MS] [--out FILE] [--width PX]
  DIR/timeline.html as a PNG (default DIR/timeline.png), rendered by headless Chromium; --from/--to
  pick the window (ms since the start of the trace), as timeline.html#from=MS&to=MS does in a browser.
EOF
}

# tools/schedlab trace-png DIR [--from MS --to MS] [--out FILE] [--width PX]:
# DIR/timeline.html as a PNG, rendered by headless Chromium (nothing from the
# network: the page is self-contained), e.g. for docs.
trace_png_cmd() {
    dir="" from="" to="" png="" width=1240
    while [ $# -gt 0 ]; do
        case "$1" in
        --from|--to|--out|--width)
            [ $# -ge 2 ] || usage_error "$1 needs a value"
            case "$1" in --from) from=$2 ;; --to) to=$2 ;; --out) png=$2 ;; --width) width=$2 ;; esac
            shift 2 ;;
        -h|--help) echo "usage: $ME trace-png DIR [--from MS --to MS] [--out FILE] [--width PX]"; exit 0 ;;
        -*) usage_error "unknown flag '$1' for trace-png" ;;
        *) [ -z "$dir" ] || usage_error "trace-png takes one trace directory"; dir=$1; shift ;;
        esac
    done
    [ -n "$dir" ] || usage_error "trace-png needs a trace directory (tools/schedlab trace --out DIR)"
    [ -f "$dir/timeline.html" ] || die "$dir/timeline.html: not found (run $ME trace ... --out $dir first)"
    for v in "$from" "$to"; do
        case "$v" in ''|*[!0-9.]*|*.*.*) [ -z "$v" ] || usage_error "--from/--to $v: expected milliseconds" ;; esac
    done
    [ -z "$from$to" ] || { [ -n "$from" ] && [ -n "$to" ]; } || usage_error "--from and --to go together"
    is_uint "$width" && [ "$width" -ge 400 ] || usage_error "--width $width: expected pixels >= 400"
    command -v chromium >/dev/null 2>&1 || die "chromium not found (make deps)"
    [ -n "$png" ] || png="$dir/timeline.png"
    # The page's height: the SVG's, plus its one line of text.
    height=$(sed -n 's/.*<svg [^>]* height="\([0-9]*\)".*/\1/p' "$dir/timeline.html" | head -1)
    profile=$(mktemp -d "${TMPDIR:-/tmp}/schedlab-chromium.XXXXXX") || die "mktemp failed"
    url="file://$(cd "$dir" && pwd)/timeline.html${from:+#from=$from&to=$to}"
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" --hide-scrollbars \
        --force-device-scale-factor=1 --window-size="$width,$(( ${height:-400} + 4 ))" --screenshot="$png" "$url" \
        >"$profile/log" 2>&1
    rc=$?
    [ $rc -eq 0 ] && [ -s "$png" ] || { cat "$profile/log" >&2; rm -rf "$profile"; die "chromium could not render $url"; }
    rm -rf "$profile"
    echo "$png"
}
