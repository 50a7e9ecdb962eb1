# Sourced by the start-*.sh scripts. close_inherited_fds, in the subshell that then execs a daemon,
# closes every descriptor but 0-2. Foundation's Process makes each child's socket pair and pipes
# without close-on-exec, and closes in a new child only the descriptors open when it looked: a
# daemon started while another test starts a command can inherit that command's socket or pipe,
# and the test then waits for an end of file that comes only when the daemon stops. (In a
# subshell: the script itself reads its commands from a descriptor bash keeps open.)
close_inherited_fds() {
    local fd n
    for fd in /proc/$BASHPID/fd/*; do
        n=${fd##*/}
        if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi
    done 2>/dev/null
}
