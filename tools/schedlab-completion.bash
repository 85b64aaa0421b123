# bash completion of schedlab (make install puts it where bash-completion
# finds it; or ". tools/schedlab-completion.bash"): verbs, each verb's
# flags, schedulers (make list-scheds), accelerators, engines, seeds, and the
# workloads and their keys as the kernel lists them (bench=list, cached beside
# a built image).  The program itself says what fits: schedlab complete.
_schedlab()
{
    local IFS=$'\n'
    COMPREPLY=($("${COMP_WORDS[0]}" complete "$COMP_CWORD" "${COMP_WORDS[@]}" 2>/dev/null))
}
complete -o default -F _schedlab schedlab
complete -o default -F _schedlab tools/schedlab
