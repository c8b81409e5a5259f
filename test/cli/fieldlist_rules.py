#!/usr/bin/env python3
"""fieldlist_rules.py SYSDIG GOLDEN_DIR - what "the same field listing as
sysdig 0.29.3" means for -l, -lv and --list-markdown, checked against the
reference's listings (golden/_global/list_{l,lv,markdown}.txt):

* the same classes, fields, order and types: run_fieldlist.sh (ctest
  cli.fieldlist.l/lv/markdown) compares those keys exactly;
* the same layout (here): -l/-lv blocks of a 31-dash line, "Field Class:"
  and "Description:" padded to column 30, an empty line, one field per
  entry with its text from column 30, continuation lines indented 30, no
  line longer than the reference's longest (120); markdown: "## Field
  Class: X", blank, description, blank, the table header, one row per field;
* the descriptions (of classes and fields) are our own words: never empty,
  and none of more than five words equal to the reference's (the
  reference's text is not copied; short ones such as "user name" may
  coincide).
Prints one line per problem and "N problems"; exit 0 when none.
"""
import re
import subprocess
import sys

COL = 30
FIELD = re.compile(r'^([a-z][a-z0-9_.]*(?:\[[^\]]*\])?) +(\S.*)$')


def words(text):
    return re.sub(r'[^a-z0-9 ]', ' ', text.lower()).split()


def text_blocks(listing, opt, problems):
    """{field: description} of a -l/-lv listing, checking its layout"""
    widest = 120
    out = {}
    cur = None
    lines = listing.split('\n')
    for i, line in enumerate(lines):
        where = f'{opt} line {i + 1}'
        if len(line) > widest:
            problems.append(f'{where}: {len(line)} characters (the reference wraps at {widest})')
        if line == '-' * 31:
            if lines[i + 1:i + 2] and not lines[i + 1].startswith('Field Class:'.ljust(COL)):
                problems.append(f'{where}: a separator not followed by "Field Class:" at column {COL}')
            cur = None
            continue
        if line.startswith('Field Class:') or line == '':
            cur = None
            continue
        if line.startswith('Description:'):
            if not line.startswith('Description:'.ljust(COL)) or not line[COL:].strip():
                problems.append(f'{where}: a class description not at column {COL}, or empty')
            cur = 'class'
            continue
        if line.startswith(' '):
            if not line.startswith(' ' * COL) or line[COL] == ' ' or cur is None:
                problems.append(f'{where}: a continuation line not indented {COL}: {line[:60]!r}')
            elif cur != 'class':
                out[cur] = (out[cur] + ' ' + line.strip()).strip()
            continue
        if re.match(r'^[a-z][a-z0-9_.]{%d,}$' % (COL - 1), line):
            cur = line		# a long name: its text starts on the next line
            out[cur] = ''
            continue
        m = FIELD.match(line)
        if not m:
            problems.append(f'{where}: not a field line: {line[:60]!r}')
            continue
        name, desc = m.group(1), m.group(2)
        if len(name) < COL and line.index(desc) != COL:
            problems.append(f'{where}: the text of {name} does not start at column {COL}')
        if opt == '-lv':
            t = re.match(r'^\(Type: [A-Z0-9_]+\) ?(.*)$', desc)
            if not t:
                problems.append(f'{where}: {name} without "(Type: T)"')
                continue
            desc = t.group(1)
        cur = name
        out[name] = desc.strip()
    return out


def markdown_rows(listing, problems):
    out = {}
    lines = listing.split('\n')
    for i, line in enumerate(lines):
        if line.startswith('## Field Class: '):
            block = lines[i + 1:i + 6]
            if len(block) < 5 or block[0] != '' or not block[1].strip() or block[2] != '' or \
                    block[3] != 'Name | Type | Description' or block[4] != ':----|:-----|:-----------':
                problems.append(f'markdown line {i + 1}: the class block of {line[16:]} is not laid out as the reference\'s')
        m = re.match(r'^`([^`]+)` \| ([A-Z0-9_]+) \| (.*)$', line)
        if m:
            out[m.group(1)] = m.group(3).strip()
    return out


def check_descriptions(opt, ours, ref, problems):
    for name, desc in ours.items():
        if not desc:
            problems.append(f'{opt}: {name} has no description')
        elif name in ref and len(words(desc)) > 5 and words(desc) == words(ref[name]):
            problems.append(f'{opt}: the description of {name} is the reference\'s text')


def main():
    sysdig, golden = sys.argv[1], sys.argv[2]
    problems = []
    for opt, tag in (('-l', 'l'), ('-lv', 'lv'), ('--list-markdown', 'markdown')):
        ours = subprocess.run([sysdig, opt], capture_output=True, check=True).stdout.decode()
        ref = open(f'{golden}/list_{tag}.txt').read()
        if opt == '--list-markdown':
            o, r = markdown_rows(ours, problems), markdown_rows(ref, [])
        else:
            o, r = text_blocks(ours, opt, problems), text_blocks(ref, opt, [])
        if not o:
            problems.append(f'{opt}: no fields parsed')
        check_descriptions(opt, o, r, problems)
        print(f'{opt}: {len(o)} fields, {sum(1 for k in o if k in r and o[k] == r[k])} descriptions equal to the reference\'s')
    for p in problems:
        print(p)
    print(f'{len(problems)} problems')
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
