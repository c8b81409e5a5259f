#!/usr/bin/env python3
"""Generate kmod_events.h: how the kernel module fills each event's parameters.

Reads driver/events.tsv (the e5c53d64 parameter lists, the single source of the
event layout) and writes, for every event id, its parameter count and for each
parameter its PT_* type plus a "source": where the value comes from (return
value, syscall argument N, user string at argument N, process info, ...).
The module's filler (fill.c) interprets these sources, so adding an event is a
table change, not new kernel code.

Sources are derived from the parameter position and name; SPECIAL below lists
the events whose parameters do not follow the default rules.

usage: gen_kmod_events.py DRIVER_DIR OUT_DIR
"""
import csv
import os
import sys

# value sources understood by fill.c (enum kmod_src)
SOURCES = [
    'ZERO', 'RET', 'ARG', 'USTR', 'UBUF_RET', 'OPEN_FLAGS', 'OPEN_MODE', 'FD_DEV',
    'PIPE_FD0', 'PIPE_FD1', 'PIPE_INO', 'SOCKADDR', 'TUPLE_OUT', 'TUPLE_TO',
    'TUPLE_FROM', 'TUPLE_MSG_TO', 'TUPLE_MSG_FROM',
    'TUPLE_RET', 'IOV_LEN', 'IOV_DATA', 'SC_ID', 'NATIVE_ID', 'EXIT_STATUS',
    'EXIT_RET', 'EXIT_SIG', 'EXIT_CORE', 'CLONE_FLAGS', 'RELTIME',
    'P_EXE', 'P_ARGS', 'P_TID', 'P_PID', 'P_PTID', 'P_CWD', 'P_FDLIMIT',
    'P_MAJFLT', 'P_MINFLT', 'P_VMSIZE', 'P_VMRSS', 'P_VMSWAP', 'P_COMM',
    'P_CGROUPS', 'P_ENV', 'P_TTY', 'P_PGID', 'P_LOGINUID', 'P_UID', 'P_GID',
    'P_VTID', 'P_VPID', 'SOCKPAIR_FD0', 'SOCKPAIR_FD1', 'UBUF_SIZE',
    'MMAP_FLAGS', 'ARG_MODE', 'USTR_NULL', 'FCNTL', 'RLIM_CUR', 'RLIM_MAX',
    'EXE_FLAGS', 'TUPLE_CONNECT',
]

# process-info parameters of execve/clone/fork exit events, by name
PROC = {
    'exe': 'P_EXE', 'args': 'P_ARGS', 'tid': 'P_TID', 'pid': 'P_PID',
    'ptid': 'P_PTID', 'cwd': 'P_CWD', 'fdlimit': 'P_FDLIMIT',
    'pgft_maj': 'P_MAJFLT', 'pgft_min': 'P_MINFLT', 'vm_size': 'P_VMSIZE',
    'vm_rss': 'P_VMRSS', 'vm_swap': 'P_VMSWAP', 'comm': 'P_COMM',
    'cgroups': 'P_CGROUPS', 'env': 'P_ENV', 'tty': 'P_TTY', 'pgid': 'P_PGID',
    'loginuid': 'P_LOGINUID', 'uid': 'P_UID', 'gid': 'P_GID',
    'vtid': 'P_VTID', 'vpid': 'P_VPID', 'flags': 'ZERO',
}

# memory counters appear in many exit events (brk, mmap, munmap, switch)
MEM = {'vm_size': 'P_VMSIZE', 'vm_rss': 'P_VMRSS', 'vm_swap': 'P_VMSWAP',
       'pgft_maj': 'P_MAJFLT', 'pgft_min': 'P_MINFLT'}

STRING_TYPES = ('PT_CHARBUF', 'PT_FSPATH', 'PT_FSRELPATH')

# event id -> list of (source, arg) per parameter, for the irregular ones
SPECIAL = {
    0: [('SC_ID', 0), ('NATIVE_ID', 0)],
    1: [('SC_ID', 0)],
    # the open calls' enter events: "(NULL)" for an unreadable name (reference)
    2: [('USTR_NULL', 0), ('OPEN_FLAGS', 1), ('OPEN_MODE', 1)],
    3: [('RET', 0), ('USTR', 0), ('OPEN_FLAGS', 1), ('OPEN_MODE', 1), ('FD_DEV', 0)],
    6: [('ARG', 0), ('ARG', 2)],
    8: [('ARG', 0), ('ARG', 2)],
    19: [('RET', 0)],
    21: [('RET', 0), ('SOCKADDR', 1)],
    22: [('ARG', 0), ('SOCKADDR', 1)],
    23: [('RET', 0), ('TUPLE_CONNECT', 0)],
    30: [('ARG', 0), ('ARG', 2), ('TUPLE_TO', 0)],
    31: [('RET', 0), ('UBUF_RET', 1)],
    34: [('ARG', 0), ('ARG', 2)],
    35: [('RET', 0), ('UBUF_RET', 1), ('TUPLE_FROM', 0)],
    43: [('RET', 0), ('SOCKPAIR_FD0', 3), ('SOCKPAIR_FD1', 3), ('ZERO', 0), ('ZERO', 0)],
    48: [('ARG', 0), ('ZERO', 0), ('TUPLE_MSG_TO', 0)],
    49: [('RET', 0), ('ZERO', 0)],
    53: [('RET', 0), ('RET', 0), ('ZERO', 0), ('TUPLE_MSG_FROM', 0)],
    58: [('USTR_NULL', 0), ('OPEN_MODE', -1)],
    59: [('RET', 0), ('USTR', 0), ('OPEN_MODE', -1), ('FD_DEV', 0)],
    61: [('RET', 0), ('PIPE_FD0', 0), ('PIPE_FD1', 0), ('PIPE_INO', 0)],
    112: [('ARG', 0), ('ARG', 2), ('ARG', 3)],
    114: [('ARG', 0), ('ARG', 2), ('ARG', 3)],
    117: [('RET', 0), ('RET', 0), ('IOV_DATA', 1)],
    118: [('ARG', 0), ('IOV_LEN', 1)],
    119: [('RET', 0), ('IOV_DATA', 1)],
    120: [('ARG', 0), ('ARG', 3)],
    121: [('RET', 0), ('RET', 0), ('IOV_DATA', 1)],
    122: [('ARG', 0), ('IOV_LEN', 1), ('ARG', 3)],
    123: [('RET', 0), ('IOV_DATA', 1)],
    134: [('RELTIME', 0)],
    145: [('RET', 0), ('ZERO', 0), ('ZERO', 0), ('ZERO', 0), ('ZERO', 0)],
    # switch: next (main.c), the outgoing task's counters
    152: [('ARG', 0), ('P_MAJFLT', 0), ('P_MINFLT', 0), ('P_VMSIZE', 0), ('P_VMRSS', 0),
          ('P_VMSWAP', 0)],
    160: [('ARG', 0), ('ARG', 1), ('ARG', 2), ('MMAP_FLAGS', 3), ('ARG', 4), ('ARG', 5)],
    186: [('EXIT_STATUS', 0), ('EXIT_RET', 0), ('EXIT_SIG', 0), ('EXIT_CORE', 0)],
    188: [('ARG', 0), ('ARG', 1), ('ZERO', 0), ('ARG', 3)],
    189: [('RET', 0), ('ZERO', 0)],
    247: [('RET', 0), ('TUPLE_RET', 0), ('ZERO', 0), ('ZERO', 0), ('ZERO', 0)],
    248: [('ZERO', 0)],
    249: [('RET', 0), ('TUPLE_RET', 0), ('ZERO', 0), ('ZERO', 0), ('ZERO', 0)],
    264: [('ARG', 1)],
    276: [('ARG', 1)],
    292: [('USTR', 0)],
    306: [('ARG', 0), ('USTR_NULL', 1), ('OPEN_FLAGS', 2), ('OPEN_MODE', 2)],
    # mkdir (2) enter mode and accept4 enter flags: 0, as the reference writes
    276: [('ZERO', 0)],
    # fcntl command as PPM_FCNTL_*; rlimits read from user memory
    150: [('ARG', 0), ('FCNTL', 1)],
    141: [('RET', 0), ('RLIM_CUR', 1), ('RLIM_MAX', 1)],
    143: [('RET', 0), ('RLIM_CUR', 1), ('RLIM_MAX', 1)],
    145: [('RET', 0), ('RLIM_CUR', 2), ('RLIM_MAX', 2), ('RLIM_CUR', 3), ('RLIM_MAX', 3)],
    # chmod family: the permission bits of the mode
    313: [('RET', 0), ('ARG', 0), ('USTR', 1), ('ARG_MODE', 2)],
    315: [('RET', 0), ('USTR', 0), ('ARG_MODE', 1)],
    317: [('RET', 0), ('ARG', 0), ('ARG_MODE', 1)],
    307: [('RET', 0), ('ARG', 0), ('USTR', 1), ('OPEN_FLAGS', 2), ('OPEN_MODE', 2),
          ('FD_DEV', 0)],
}


def default_sources(ev_id, direction, params):
    """Default rules: enter param i = syscall arg i; exit param 0 = return
    value, process info by name, buffers from arg 1, the rest positional."""
    out = []
    has_proc = any(p[0] == 'exe' for p in params)
    for i, (name, ptype) in enumerate(params):
        if direction == 'E':
            src = 'USTR' if ptype in STRING_TYPES else 'ARG'
            out.append((src, i))
        elif i == 0:
            out.append(('RET', 0))
        elif name in MEM:
            out.append((MEM[name], 0))
        elif has_proc:
            src = PROC.get(name, 'ZERO')
            if name == 'flags' and ev_id not in range(282, 294) and ev_id != 331:
                src = 'CLONE_FLAGS'
            elif name == 'flags':
                src = 'EXE_FLAGS'
            out.append((src, 0))
        elif name == 'data' and ptype == 'PT_BYTEBUF':
            out.append(('UBUF_RET', 1))
        elif ptype in STRING_TYPES:
            out.append(('USTR', i - 1))
        elif ptype in ('PT_DYN', 'PT_SOCKADDR', 'PT_SOCKTUPLE', 'PT_BYTEBUF',
                       'PT_FDLIST', 'PT_RELTIME'):
            out.append(('ZERO', 0))
        else:
            out.append(('ARG', i - 1))
    return out


def main():
    src_dir, out_dir = sys.argv[1], sys.argv[2]
    with open(os.path.join(src_dir, 'events.tsv'), newline='') as f:
        rows = list(csv.DictReader(f, delimiter='\t', quoting=csv.QUOTE_NONE))
    events = [r for r in rows if r['in_e5c53d64'] == 'Y']
    maxp = 0
    lines = []
    for e in events:
        ev_id = int(e['id'])
        params = []
        if e['e5c53d64_params']:
            for p in e['e5c53d64_params'].split('|'):
                name, ptype, _fmt = p.rsplit(':', 2)
                params.append((name, ptype))
        srcs = SPECIAL.get(ev_id) or default_sources(ev_id, e['direction'], params)
        if len(srcs) != len(params):
            sys.exit('gen_kmod_events: event %d: %d sources for %d params'
                     % (ev_id, len(srcs), len(params)))
        maxp = max(maxp, len(params))
        cells = ', '.join('{ %s, KSRC_%s, %d }' % (t, s, a)
                          for (_n, t), (s, a) in zip(params, srcs))
        lines.append('\t[%d] = { %d, { %s } }, /* %s %s */'
                     % (ev_id, len(params), cells, e['e5c53d64_name'], e['direction']))
    o = ['/* Generated by driver/kmod/gen_kmod_events.py from driver/events.tsv: do not edit. */',
         '#ifndef KMOD_EVENTS_H', '#define KMOD_EVENTS_H', '',
         '#include "event_ids.h"', '']
    o.append('enum kmod_src {')
    o += ['\tKSRC_%s,' % s for s in SOURCES]
    o.append('};')
    o.append('')
    o.append('#define KMOD_MAX_PARAMS %d' % maxp)
    o.append('')
    o.append('struct kmod_param { unsigned char type, src; signed char arg; };')
    o.append('struct kmod_event {')
    o.append('\tunsigned char nparams;')
    o.append('\tstruct kmod_param p[KMOD_MAX_PARAMS];')
    o.append('};')
    o.append('')
    o.append('static const struct kmod_event g_kmod_events[PPM_EVENT_MAX] = {')
    o += lines
    o.append('};')
    o.append('')
    o.append('#endif')
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, 'kmod_events.h'), 'w') as f:
        f.write('\n'.join(o) + '\n')


if __name__ == '__main__':
    main()
