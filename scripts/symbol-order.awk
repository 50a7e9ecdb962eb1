# Page traces (scripts/pagetrace.c) and `nm -n` of the same binary -> lld's --symbol-ordering-file:
# every function that overlaps a page that ran, in the order its first page was touched.
#   awk -f symbol-order.awk phase=trace TRACE... phase=symbols NM_OUTPUT | sort -n -k1,1 -k2,2 | cut -d' ' -f3
# By hand: mawk, Debian's awk, has no strtonum.
function hex(text,   i, value) {
    value = 0
    text = tolower(text)
    for (i = 1; i <= length(text); i++) value = value * 16 + index("0123456789abcdef", substr(text, i, 1)) - 1
    return value
}
# Prints "rank sequence name" when [start, end) overlaps a page that ran.
function emit(start, end, name,   page, best) {
    best = 0
    for (page = start - start % 4096; page < end; page += 4096)
        if ((page in rank) && (!best || rank[page] < best)) best = rank[page]
    if (best) print best, ++emitted, name
}
phase == "trace" { if (!($1 in rank)) rank[$1 + 0] = ++ranks; next }
phase == "symbols" && $2 ~ /^[tTwW]$/ {
    address = hex($1)
    if (have) emit(previous_address, address > previous_address ? address : previous_address + 1, previous_name)
    previous_address = address; previous_name = $3; have = 1
}
END { if (have) emit(previous_address, previous_address + 1, previous_name) }
