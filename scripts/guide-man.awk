# guide-man.awk: docs/guide.md (the listener's guide) as abplayer(7), in roff.
# usage: awk -v version=0.1.0 -f scripts/guide-man.awk docs/guide.md > abplayer.7
#
# The Markdown the guide uses, and no more: headings (# the title, ## sections, ### subsections),
# paragraphs, lists (-, *, + or 1.; nested by two spaces), fenced code blocks, block quotes, tables
# (each row a tagged paragraph: the first cell the tag, the others after it), HTML comments
# (dropped), and inline `code`, **bold**, *emphasis* and [links](target). Plain POSIX awk (Debian's
# mawk): the install needs nothing more than it already has. Anything else passes through as
# text, so a construct this does not know shows up as its Markdown, never as a wrong page.

# Text taken literally by roff: backslashes, quotes in macro arguments, a leading dot or quote.
function escape(text) {
    gsub(/\\/, "\\e", text)
    return text
}

function literal_line(text) {
    text = escape(text)
    if (text ~ /^[.']/) text = "\\&" text
    return text
}

# Inline Markdown as roff fonts; hyphens in code spans are minus signs (copied, they work).
function inline(text,    out, code, before, start, length_) {
    text = links(escape(text))
    out = ""
    while (match(text, /`[^`]+`/)) {
        start = RSTART; length_ = RLENGTH # (emphasis() matches too, and resets both)
        before = substr(text, 1, start - 1)
        code = substr(text, start + 1, length_ - 2)
        gsub(/-/, "\\-", code)
        out = out emphasis(before) "\\fB" code "\\fR"
        text = substr(text, start + length_)
    }
    out = out emphasis(text)
    if (out ~ /^[.']/) out = "\\&" out
    return out
}

# Links as their words (a web address kept after them), before code spans: a link's words may
# be code.
function links(text,    label, target) {
    while (match(text, /!?\[[^]]*\]\([^)]*\)/)) {
        label = substr(text, RSTART, RLENGTH)
        target = label
        sub(/^!?\[/, "", label); sub(/\]\(.*$/, "", label)
        sub(/^[^(]*\(/, "", target); sub(/\)$/, "", target)
        # A web address is kept after its words; a link to another file of the docs is not
        # (the page stands alone where it is installed).
        if (target ~ /^[a-z]+:/) label = label " (" target ")"
        text = substr(text, 1, RSTART - 1) label substr(text, RSTART + RLENGTH)
    }
    return text
}

function emphasis(text) {
    while (match(text, /\*\*[^*]+\*\*/))
        text = substr(text, 1, RSTART - 1) "\\fB" substr(text, RSTART + 2, RLENGTH - 4) "\\fR" substr(text, RSTART + RLENGTH)
    while (match(text, /\*[^* ][^*]*\*/))
        text = substr(text, 1, RSTART - 1) "\\fI" substr(text, RSTART + 1, RLENGTH - 2) "\\fR" substr(text, RSTART + RLENGTH)
    return text
}

function heading_text(line) {
    sub(/^#+[ \t]*/, "", line)
    sub(/[ \t]*#*[ \t]*$/, "", line)
    gsub(/"/, "", line)
    return line
}

# A paragraph's lines are joined before its inline Markdown is read: a `code` span may go on
# over a line break.
function add_text(line) { pending = (pending == "" ? line : pending " " line) }
function flush() { if (pending != "") print inline(pending); pending = "" }

# Leaves any list or quote: back to the left margin.
function close_blocks() {
    flush()
    while (depth > 0) { print ".RE"; depth-- }
    if (quoted) { print ".RE"; quoted = 0 }
    list_indent = -1
}

function table_row(line, header,    cells, count, i, rest) {
    sub(/^[ \t]*\|/, "", line); sub(/\|[ \t]*$/, "", line)
    count = split(line, cells, /\|/)
    for (i = 1; i <= count; i++) { sub(/^[ \t]+/, "", cells[i]); sub(/[ \t]+$/, "", cells[i]) }
    print ".TP"
    print (header ? "\\fB" inline(cells[1]) "\\fR" : inline(cells[1]))
    rest = ""
    for (i = 2; i <= count; i++) if (cells[i] != "") rest = rest (rest == "" ? "" : "; ") cells[i]
    print (rest == "" ? "\\&" : inline(rest))
}

function title_page(title) {
    printf ".TH ABPLAYER 7 \"\" \"abplayer %s\" \"abplayer manual\"\n", version
    print ".SH NAME"
    print "abplayer \\- " escape(title == "" ? "the listener's guide" : title)
    # Ragged right and no hyphens: a long `code` span or address neither leaves a line groff cannot
    # adjust nor is cut in two.
    print ".ad l"
    print ".nh"
    titled = 1
    need_section = 1
}

BEGIN {
    if (version == "") version = "unknown"
    print ".\\\" -*- coding: UTF-8 -*-"
    print ".\\\" Made from docs/guide.md by scripts/guide-man.awk: edit the Markdown, not this."
    depth = 0; quoted = 0; list_indent = -1; fenced = 0; commented = 0; titled = 0; in_table = 0
}

# HTML comments, on one line or across several.
commented { if ($0 ~ /-->/) commented = 0; next }
!fenced && /^[ \t]*<!--/ { if ($0 !~ /-->/) commented = 1; next }

/^# / && !titled {
    title = heading_text($0)
    sub(/^abplayer[ \t]*/, "", title)
    sub(/^(\342\200\224|\342\200\223|-|:)+[ \t]*/, "", title)
    title_page(title)
    next
}
# A guide with no title of its own still makes a whole page.
!titled && $0 !~ /^[ \t]*$/ { title_page("") }

# Text before the first section is the page's description.
need_section && $0 !~ /^(##? |[ \t]*$)/ { print ".SH DESCRIPTION"; need_section = 0 }

/^[ \t]*```/ {
    flush()
    if (fenced) { print ".fi"; print ".RE"; fenced = 0 }
    else { if ($0 ~ /^```/) close_blocks(); print ".PP"; print ".RS 4"; print ".nf"; fenced = 1 }
    next
}
fenced { print literal_line($0); next }


/^##? / { close_blocks(); in_table = 0; need_section = 0; print ".SH \"" inline(toupper(heading_text($0))) "\""; next }
/^### / { close_blocks(); in_table = 0; print ".SS \"" inline(heading_text($0)) "\""; next }
/^####+ / { close_blocks(); in_table = 0; print ".PP"; print "\\fB" inline(heading_text($0)) "\\fR"; next }

/^[ \t]*$/ { flush(); in_paragraph = 0; in_table = 0; next }

/^[ \t]*\|/ {
    # The row under the header (|---|:--|) says only how to align; the header row itself is a
    # row like the others (its words name the columns).
    if ($0 ~ /^[ \t]*\|[ \t:|-]+\|?[ \t]*$/) next
    if (!in_table) close_blocks()
    flush()
    table_row($0, !in_table)
    in_table = 1
    next
}

/^>/ {
    line = $0; sub(/^>[ \t]?/, "", line)
    if (!quoted) { close_blocks(); print ".PP"; print ".RS 4"; quoted = 1 }
    add_text(line)
    next
}

/^[ \t]*([-*+]|[0-9]+\.)[ \t]+/ {
    match($0, /^[ \t]*/)
    indent = RLENGTH
    item = $0; sub(/^[ \t]*/, "", item)
    marker = item; sub(/[ \t].*$/, "", marker)
    sub(/^([-*+]|[0-9]+\.)[ \t]+/, "", item)
    flush()
    if (quoted) { print ".RE"; quoted = 0 }
    if (list_indent < 0) list_indent = indent
    # Nested two spaces (or more) deeper than the list's first level: indented by one step.
    level = int((indent - list_indent) / 2)
    if (level < 0) level = 0
    while (depth < level) { print ".RS 2"; depth++ }
    while (depth > level) { print ".RE"; depth-- }
    print ".IP " (marker ~ /^[0-9]/ ? "\"" marker "\" 4" : "\\(bu 2")
    add_text(item)
    in_paragraph = 1
    next
}

{
    line = $0; sub(/^[ \t]+/, "", line)
    if (quoted) { flush(); print ".RE"; quoted = 0 }
    # A line indented under a list item goes on with that item; anything else starts a paragraph.
    if (list_indent >= 0 && $0 !~ /^[ \t]/ && !in_paragraph) close_blocks()
    if (!in_paragraph) { flush(); print (list_indent < 0 ? ".PP" : ".IP"); in_paragraph = 1 }
    add_text(line)
}

END {
    flush()
    if (fenced) { print ".fi"; print ".RE" }
    close_blocks()
    print ".SH \"SEE ALSO\""
    print ".BR abplayer (1)"
}
