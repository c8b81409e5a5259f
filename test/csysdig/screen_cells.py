#!/usr/bin/env python3
"""screen_cells.py FILE: a `tmux capture-pane -p -e` screen as text with each
cell's background color: one line per screen line, cells as "char/bg" runs
("  3x /28" = 3 spaces on color 28). Colors are normalized (40-47 and
100-107 are 0-7 and 8-15, 48;5;N is N, the default is "-"), so two screens
drawn with different escape sequences compare equal when they look the same
(the foreground of blank cells is not compared, trailing black blanks
count as not drawn)."""
import re
import sys

SGR = re.compile(r'\x1b\[([0-9;]*)m')


def cells(line, bg):
    """the runs of a line and the color it ends on (tmux -e output carries
    the color from one line to the next)"""
    out, pos = [], 0
    for m in SGR.finditer(line):
        out += [(ch, bg) for ch in line[pos:m.start()]]
        pos = m.end()
        codes = [int(c) if c else 0 for c in m.group(1).split(';')]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c in (38, 48) and i + 2 < len(codes) and codes[i + 1] == 5:
                if c == 48:
                    bg = str(codes[i + 2])
                i += 3
                continue
            if c == 0 or c == 49:
                bg = '-'
            elif 40 <= c <= 47:
                bg = str(c - 40)
            elif 100 <= c <= 107:
                bg = str(c - 100 + 8)
            i += 1
    out += [(ch, bg) for ch in line[pos:]]
    # trailing blanks on the default color are not drawn; on black they may
    # be an erase to the end of the line (bce), which tmux does not show
    while out and out[-1][0] == ' ' and out[-1][1] in ('-', '0'):
        out.pop()
    runs = []
    for ch, b in out:
        if runs and runs[-1][0] == ch and runs[-1][2] == b:
            runs[-1][1] += 1
        else:
            runs.append([ch, 1, b])
    return ' '.join('%r%s/%s' % (ch, 'x%d' % n if n > 1 else '', b) for ch, n, b in runs), bg


bg = '-'
for line in open(sys.argv[1], encoding='utf-8', errors='replace').read().split('\n'):
    text, bg = cells(line, bg)
    print(text)
