#!/usr/bin/env python3
"""Generate the C event, flag and syscall tables from the TSV files of driver/.

The TSV files (events.tsv, flags.tsv, syscall_map.tsv, param_type_ids.tsv) are the
single source of truth of the event format.  This script turns them into:

  event_ids.h       enum of event ids, PT_/PF_/EC_/EF_ constants, and the
                    schema hash of the tables (kernel + user)
  ppm_flags.h       every PPM_* constant of flags.tsv and every Linux -> PPM
                    conversion (the linux column), for kernel and user code
  fill_table.h      how both drivers fill each parameter (the fill column of
                    events.tsv, one vocabulary: FILL_SOURCES below) and which
                    eBPF filler writes each event pair (kernel + user)
  syscall_table.h   x86_64 syscall nr -> enter/exit event, ppm_sc code (kernel + user)
  event_table.c     g_event_info[]: names, categories, flags, parameter lists (user),
                    and g_ext_event_info[] of our own events (ext_events.tsv)
  flag_tables.c     every flag/enum name table and the PT_DYN selector tables (user)

The event layout is the one of falcosecurity/libs e5c53d64, which is what sysdig
0.29.3 reads and writes (ids 0-335); our drivers produce exactly that layout.  Ids
after the reference's are our own events (sysdig 0.29.3 skips them in a file).

usage: gen_tables.py SRC_DIR OUT_DIR
"""
import csv
import glob
import hashlib
import os
import sys

# e5c53d64 numeric values of the category and flag names used in events.tsv
CATEGORIES = {
    'EC_UNKNOWN': 0, 'EC_OTHER': 1, 'EC_FILE': 2, 'EC_NET': 3, 'EC_IPC': 4,
    'EC_MEMORY': 5, 'EC_PROCESS': 6, 'EC_SLEEP': 7, 'EC_SYSTEM': 8,
    'EC_SIGNAL': 9, 'EC_USER': 10, 'EC_TIME': 11, 'EC_PROCESSING': 12,
    'EC_IO_READ': 32, 'EC_IO_WRITE': 33, 'EC_IO_OTHER': 34, 'EC_WAIT': 64,
    'EC_SCHEDULER': 128, 'EC_INTERNAL': 256,
}
EVENT_FLAGS = {
    'EF_NONE': 0, 'EF_CREATES_FD': 1, 'EF_DESTROYS_FD': 2, 'EF_USES_FD': 4,
    'EF_READS_FROM_FD': 8, 'EF_WRITES_TO_FD': 16, 'EF_MODIFIES_STATE': 32,
    'EF_UNUSED': 64, 'EF_WAITS': 128, 'EF_SKIPPARSERESET': 256,
    'EF_OLD_VERSION': 512, 'EF_DROP_SIMPLE_CONS': 1024, 'EF_LARGE_PAYLOAD': 2048,
}


# Display names of e5c53d64 ppm_sc codes that differ from their enum name:
# the enum says PPM_SC_NEWFSSTAT but sysdig 0.29.3 prints "newfstatat".
SC_NAME_OVERRIDES = {'PPM_SC_NEWFSSTAT': 'newfstatat'}


# The fill vocabulary: where a parameter's value comes from, in both drivers.
# A cell of the fill column is NAME or NAME(N) (N: the syscall argument);
# numbers are stored with the size of the parameter's PT_ type, arguments as
# the register holds them (as the reference driver: a C int -1 reads
# 4294967295), but AT_FDCWD in a PT_FD: -100.  "table" below: the eBPF
# table filler (fill_table.bpf.h) implements it; every source is implemented by
# the module's interpreter (kmod/fill.c); the others are written by the named
# eBPF filler of the event pair (filler column).
FILL_SOURCES = [
    # name, takes an argument, eBPF table filler, meaning
    ('zero', 0, 1, 'an empty value: 0, "" or no bytes'),
    ('ret', 0, 1, 'the return value'),
    ('arg', 1, 1, 'syscall argument N'),
    ('arg_int', 1, 1, 'syscall argument N as a C int, sign-extended'),
    ('ustr', 1, 1, 'the user string argument N points to ("<NA>" if unreadable)'),
    ('ustr_null', 1, 1, 'the same, "(NULL)" if unreadable (the open calls\' enter, as the reference)'),
    ('ubuf_str', 1, 1, 'the string the call wrote at argument N (when it returned > 0)'),
    ('open_flags', 1, 1, 'open flags of argument N, as PPM_O_*'),
    ('open_mode', 1, 1, 'mode of argument N when the flags of argument N-1 create a file, else 0'),
    ('mode', 1, 1, 'argument N & 07777'),
    ('fd_dev', 0, 1, 'device of the fd returned'),
    ('vm_size', 0, 1, 'virtual memory size of the process (KiB)'),
    ('vm_rss', 0, 1, 'resident memory (KiB)'),
    ('vm_swap', 0, 1, 'swapped memory (KiB)'),
    ('fcntl_cmd', 1, 1, 'fcntl command of argument N, as PPM_FCNTL_*'),
    ('mmap_flags', 1, 1, 'mmap flags of argument N, as PPM_MAP_*'),
    ('semget_flags', 1, 1, 'semget flags of argument N, as PPM_IPC_*'),
    ('reltime', 1, 1, 'the struct timespec argument N points to, in ns (0 if NULL)'),
    ('u32_at', 1, 1, 'the u32 argument N points to (0 if NULL)'),
    ('u64_at', 1, 1, 'the u64 argument N points to (0 if NULL)'),
    ('rlim_cur', 1, 1, 'rlim_cur of the struct rlimit argument N points to (-1 if NULL, and'
     ' when the call failed, but for prlimit\'s old limit, argument 3)'),
    ('rlim_max', 1, 1, 'rlim_max of the same'),
    ('how_flags', 1, 1, 'flags of the struct open_how argument N points to, as PPM_O_*'),
    ('how_mode', 1, 1, 'its mode (0 unless the flags create a file)'),
    ('how_resolve', 1, 1, 'its resolve flags, as PPM_RESOLVE_*'),
    ('ubuf_ret', 1, 0, 'the buffer of argument N, as many bytes as returned (up to the snaplen)'),
    ('ubuf_size', 1, 0, 'the buffer of argument N, argument N+1 bytes (up to the snaplen)'),
    ('iov_len', 1, 0, 'total length of the iovec array of argument N (count in N+1)'),
    ('iov_len_read', 1, 0, 'the same, capped by the return value when that is >= 0 (a failed'
     ' call keeps the total, as the reference)'),
    ('iov_data', 1, 0, 'the data of that iovec array, as many bytes as returned'),
    ('iov_data_all', 1, 0, 'the data of that iovec array, all of it'),
    ('msg_iov_len', 1, 0, 'total length of the iovecs of the struct msghdr argument N points to'),
    ('msg_iov_len_read', 1, 0, 'the same, capped as iov_len_read'),
    ('msg_iov_data', 1, 0, 'their data, as many bytes as returned'),
    ('msg_iov_data_all', 1, 0, 'their data, all of it'),
    ('fd_pair0', 1, 0, 'the first of the two fds argument N points to (pipe, socketpair)'),
    ('fd_pair1', 1, 0, 'the second one'),
    ('pipe_ino', 1, 0, 'inode of the pipe whose fds argument N points to'),
    ('sock_ptr0', 1, 0, 'kernel address of the socket of the first fd argument N points to'),
    ('sock_ptr1', 1, 0, 'kernel address of its peer'),
    ('sockaddr', 1, 0, 'the struct sockaddr argument N points to (length in N+1), as PT_SOCKADDR'),
    ('tuple_out', 1, 0, 'the socket tuple of fd argument N, local side first'),
    ('tuple_connect', 1, 0, 'as tuple_out, the remote side the address connect was given (0.0.0.0 stays)'),
    ('tuple_to', 1, 0, 'the same, when sendto was given an address'),
    ('tuple_from', 1, 0, 'the tuple of fd argument N, remote side first, when recvfrom got an address'),
    ('tuple_msg_to', 1, 0, 'as tuple_to for sendmsg (address in the msghdr)'),
    ('tuple_msg_from', 1, 0, 'as tuple_from for recvmsg'),
    ('tuple_ret', 0, 0, 'the tuple of the fd returned, remote side first (accept)'),
    ('queuepct', 0, 0, 'accept: backlog use of the listening socket of argument 0, in percent'),
    ('queuelen', 0, 0, 'accept: its backlog length'),
    ('queuemax', 0, 0, 'accept: its backlog maximum'),
    ('fdlist_in', 1, 0, 'the struct pollfd array of argument N (count in N+1) with the events'),
    ('fdlist_out', 1, 0, 'the same with the revents'),
    ('ppoll_timeout', 1, 0, 'the struct timespec argument N points to, in ns (-1 if NULL)'),
    ('sockopt_level', 1, 0, 'socket option level of argument N, as PPM_SOCKOPT_LEVEL_*'),
    ('sockopt_name', 1, 0, 'socket option name of argument N (SOL_SOCKET only)'),
    ('sockopt_val', 1, 0, 'the option value argument N points to, as PT_DYN'),
    ('ptrace_req', 1, 0, 'ptrace request of argument N, as PPM_PTRACE_*'),
    ('ptrace_addr', 1, 0, 'ptrace argument N, as PT_DYN'),
    ('ptrace_data', 1, 0, 'ptrace argument N, as PT_DYN'),
    ('bpf_res_or_fd', 0, 0, 'bpf return value, as PT_DYN: an fd for map/prog creation'),
    ('sc_id', 0, 0, 'the ppm_sc code of the syscall (generic events)'),
    ('native_id', 0, 0, 'the syscall number'),
    ('exit_status', 0, 0, 'exit code of the process'),
    ('exit_ret', 0, 0, 'its exit status byte'),
    ('exit_sig', 0, 0, 'the signal that ended it'),
    ('exit_core', 0, 0, '1 when it dumped core'),
    ('exe_flags', 0, 0, 'execve exit flags: PPM_EXE_WRITABLE when the task may write its executable'),
    ('clone_flags', 0, 0, 'clone flags, as PPM_CL_* (plus PPM_CL_CHILD_IN_PIDNS)'),
    ('exe', 0, 0, 'argv[0] of the process'),
    ('args', 0, 0, 'the other arguments of the process'),
    ('env', 0, 0, 'its environment'),
    ('tid', 0, 0, 'thread id'),
    ('pid', 0, 0, 'process id'),
    ('ptid', 0, 0, 'parent thread id'),
    ('cwd', 0, 0, 'working directory'),
    ('fdlimit', 0, 0, 'RLIMIT_NOFILE'),
    ('pgft_maj', 0, 0, 'major page faults'),
    ('pgft_min', 0, 0, 'minor page faults'),
    ('comm', 0, 0, 'the task name'),
    ('cgroups', 0, 0, '"subsys=path" of every cgroup subsystem'),
    ('tty', 0, 0, 'controlling terminal'),
    ('pgid', 0, 0, 'process group'),
    ('loginuid', 0, 0, 'audit login uid'),
    ('euid', 0, 0, 'effective uid'),
    ('egid', 0, 0, 'effective gid'),
    ('vtid', 0, 0, 'thread id in its pid namespace'),
    ('vpid', 0, 0, 'process id in its pid namespace'),
]

# filler column: "table" (the fill column is the eBPF implementation too), a
# hand-written eBPF filler (driver/bpf/fill_NAME.bpf.h, installed for the
# pair by the engine), "tracepoint" (written by the drivers' hooks, not by a
# syscall filler) or "-" (no driver writes the event)
BPF_FILLERS = ['table', 'rw', 'pipe', 'sock', 'clone', 'execve', 'misc']
FILLERS = BPF_FILLERS + ['tracepoint', '-']
TABLE_FILLER_MAXP = 8   # parameters of an event the eBPF table filler writes

PT_SIZES = {}
for _t, _n in (('PT_INT8 PT_UINT8 PT_FLAGS8 PT_SIGTYPE PT_L4PROTO PT_SOCKFAMILY', 1),
               ('PT_INT16 PT_UINT16 PT_SYSCALLID PT_PORT PT_FLAGS16', 2),
               ('PT_INT32 PT_UINT32 PT_BOOL PT_IPV4ADDR PT_UID PT_GID PT_FLAGS32 PT_SIGSET PT_MODE', 4),
               ('PT_INT64 PT_UINT64 PT_ERRNO PT_FD PT_PID PT_RELTIME PT_ABSTIME PT_DOUBLE', 8)):
    for _x in _t.split():
        PT_SIZES[_x] = _n


# Linux -> PPM conversions generated from the linux column of flags.tsv:
# table -> function.  A bit table's entry is set when all bits of its Linux
# value are ("(f & v) == v"); a "value/mask" entry is a field (f & mask)
# == value, "default/mask" the value when no other entry of the field matches.
# An enum table maps each Linux value to the entry's value (0 for the others).
# The argument has the C type of the syscall ABI (fcntl's cmd is an int, a
# pollfd's events a short, clone3's flags 64 bits).
BIT_CONVERSIONS = {
    'file_flags': ('open_flags_to_ppm', 'unsigned int'),
    'clone_flags': ('clone_flags_to_ppm', 'unsigned long long'),
    'mmap_flags': ('mmap_flags_to_ppm', 'unsigned int'),
    'openat2_flags': ('resolve_to_ppm', 'unsigned long long'),
    'semget_flags': ('semget_flags_to_ppm', 'unsigned int'),
    'poll_flags': ('poll_to_ppm', 'unsigned short'),
}
ENUM_CONVERSIONS = {
    'fcntl_commands': ('fcntl_to_ppm', 'unsigned int'),
    'ptrace_requests': ('ptrace_to_ppm', 'unsigned long long'),
}


def read_tsv(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f, delimiter='\t', quoting=csv.QUOTE_NONE))


def cstr(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def ident(s):
    return ''.join(c if c.isalnum() else '_' for c in s)


def schema_hash(src):
    """64 bits of the SHA-256 of what a driver and a reader must agree on:
    every table of driver/ (*.tsv), the event layout (event_format.h) and the
    module's ioctl/ring contract (kmod/kmod_abi.h).  The module answers it
    (KMOD_IOC_GET_SCHEMA) and the engine refuses another one."""
    h = hashlib.sha256()
    files = sorted(glob.glob(os.path.join(src, '*.tsv')))
    files += [os.path.join(src, 'event_format.h'), os.path.join(src, 'kmod', 'kmod_abi.h')]
    for path in files:
        if os.path.exists(path):
            h.update(os.path.basename(path).encode() + b'\0')
            with open(path, 'rb') as f:
                h.update(f.read())
    return h.hexdigest()[:16]


def fail(msg):
    sys.exit('gen_tables: ' + msg)


def parse_fill(cell):
    """'ret|arg(0)|ustr(1)' -> [('ret', 0), ('arg', 0), ('ustr', 1)]"""
    out = []
    for c in cell.split('|') if cell else []:
        name, _, rest = c.partition('(')
        out.append((name, int(rest.rstrip(')')) if rest else 0, bool(rest)))
    return out


def load_events(src):
    """events.tsv, checked: ids 0..n-1 in order (an enter event even, its exit
    the next id), a known filler, one known fill source per parameter."""
    sources = {n: (a, t) for n, a, t, _d in FILL_SOURCES}
    events = []
    for i, r in enumerate(read_tsv(os.path.join(src, 'events.tsv'))):
        where = 'events.tsv id %s (%s)' % (r['id'], r['enum'])
        if int(r['id']) != i:
            fail('%s: ids must be contiguous from 0, expected %d' % (where, i))
        if r['direction'] != 'EX'[i & 1]:
            fail('%s: enter events have even ids, exits odd ones' % where)
        params = []
        for p in r['params'].split('|') if r['params'] else []:
            f = p.split(':')
            if len(f) not in (3, 4):
                fail('%s: parameter %r is not name:PT_TYPE:PF_FORMAT[:info]' % (where, p))
            params.append((f[0], f[1], f[2], f[3] if len(f) == 4 else ''))
        if r['filler'] not in FILLERS:
            fail('%s: unknown filler %r' % (where, r['filler']))
        fill = parse_fill(r['fill'])
        written = r['filler'] != '-' and not (r['filler'] == 'tracepoint' and not fill)
        if written and len(fill) != len(params):
            fail('%s: %d fill sources for %d parameters' % (where, len(fill), len(params)))
        for (name, _a, has_arg), p in zip(fill, params):
            if name not in sources:
                fail('%s: unknown fill source %r' % (where, name))
            if has_arg != bool(sources[name][0]):
                fail('%s: fill source %s %s an argument' % (
                    where, name, 'takes' if sources[name][0] else 'takes no'))
            if r['filler'] == 'table' and not sources[name][1]:
                fail('%s: %s is not written by the eBPF table filler: name a filler' % (where, name))
            if name in ('arg', 'ret') and p[1] not in PT_SIZES:
                fail('%s: %s of %s: not a number type' % (where, name, p[1]))
        if r['filler'] == 'table' and len(params) > TABLE_FILLER_MAXP:
            fail('%s: the table filler writes at most %d parameters' % (where, TABLE_FILLER_MAXP))
        if i & 1 and r['filler'] != events[-1]['filler'] and '-' not in (r['filler'], events[-1]['filler']):
            fail('%s: the enter and exit events of a pair have one filler' % where)
        events.append({'id': i, 'name': r['name'], 'dir': r['direction'], 'enum': r['enum'],
                       'category': r['category'], 'flags': r['flags'], 'params': params,
                       'fill': [(n, a) for n, a, _h in fill] if written else None,
                       'filler': r['filler']})
    return events


def gen_ext_ids(ext):
    """Our own events (ext_events.tsv): ids after every id of the newest libs'
    table, which sysdig 0.29.3 (and our reader, for unknown ids) skips."""
    o = ['', '/* our own events (driver/ext_events.tsv), outside g_event_info */']
    for e in ext:
        o.append('#define %s %s' % (e['enum_name'], e['id']))
    o.append('#define PPM_EXT_EVENT_FIRST %s' % ext[0]['id'])
    o.append('#define PPM_EXT_EVENT_END %d' % (int(ext[-1]['id']) + 1))
    return o


def gen_ids(out, events, ext, ptypes, schema):
    o = ['/* Generated by driver/gen_tables.py from the driver TSV files: do not edit. */',
         '#ifndef EVENT_IDS_H', '#define EVENT_IDS_H', '',
         '/* schema hash of the tables this build was generated from (gen_tables.py schema_hash) */',
         '#define SCHEMA_HASH 0x%sULL' % schema, '#define SCHEMA_HASH_STR "%s"' % schema, '',
         'enum ppm_event_code {']
    for e in events:
        o.append('\t%s = %d,' % (e['enum'], e['id']))
    o.append('\tPPM_EVENT_MAX = %d' % len(events))
    o.append('};')
    o += gen_ext_ids(ext)
    o.append('')
    for p in ptypes:
        if p['id_e5c53d64'] != '':
            o.append('#define %s %s' % (p['name'], p['id_e5c53d64']))
    o.append('')
    for k, v in CATEGORIES.items():
        o.append('#define %s %d' % (k, v))
    for k, v in EVENT_FLAGS.items():
        o.append('#define %s %d' % (k, v))
    o += ['', '#endif']
    out.write('\n'.join(o) + '\n')


def gen_fill(out, events):
    """fill_table.h: the fill column for the module's interpreter and the eBPF
    table filler, and the eBPF filler of every event pair."""
    maxp = max(len(e['params']) for e in events)
    o = ['/* Generated by driver/gen_tables.py from driver/events.tsv: do not edit. */',
         '#ifndef FILL_TABLE_H', '#define FILL_TABLE_H', '',
         '#include "event_ids.h"', '',
         '/* where a parameter comes from (gen_tables.py FILL_SOURCES) */',
         'enum fill_src {']
    for n, _a, _t, doc in FILL_SOURCES:
        o.append('\tFS_%s,\t/* %s */' % (n.upper(), doc))
    o += ['};', '',
          '#define FILL_MAX_PARAMS %d' % maxp,
          '#define FILL_TABLE_MAXP %d\t/* parameters of an event of the eBPF table filler */'
          % TABLE_FILLER_MAXP, '',
          '/* size: bytes of a number type, 0 for the others */',
          'struct fill_param {', '\tunsigned char src, arg, type, size;', '};', '',
          'struct fill_event {', '\tunsigned char nparams;',
          '\tstruct fill_param p[FILL_MAX_PARAMS];', '};', '',
          '/* the eBPF filler of an event pair, indexed by its enter event */',
          '/* X(ENUM, name): BPF_FILLER_ENUM is the program fill_name of probe.bpf.c */',
          '#define BPF_FILLERS(X) ' + ' '.join('X(%s, %s)' % (f.upper(), f) for f in BPF_FILLERS), '',
          'enum bpf_filler {', '\tBPF_FILLER_NONE,']
    o += ['\tBPF_FILLER_%s,' % f.upper() for f in BPF_FILLERS]
    o += ['};', '',
          'static const struct fill_event g_fill_events[PPM_EVENT_MAX] = {']
    for e in events:
        if e['fill'] is None:
            continue
        cells = ', '.join('{ FS_%s, %d, %s, %d }' % (n.upper(), a, p[1], PT_SIZES.get(p[1], 0))
                          for (n, a), p in zip(e['fill'], e['params']))
        o.append('\t[%s] = { %d, { %s } },' % (e['enum'], len(e['params']), cells))
    o += ['};', '', '/* parameters of every event (the eBPF builder writes this count) */',
          'static const unsigned char g_event_nparams[PPM_EVENT_MAX] = {']
    o += ['\t[%s] = %d,' % (e['enum'], len(e['params'])) for e in events if e['params']]
    o += ['};', '', 'static const unsigned char g_bpf_filler[PPM_EVENT_MAX] = {']
    for e in events:
        if e['dir'] == 'E' and e['filler'] in BPF_FILLERS:
            o.append('\t[%s] = BPF_FILLER_%s,' % (e['enum'], e['filler'].upper()))
    o += ['};', '', '#endif']
    out.write('\n'.join(o) + '\n')


def gen_syscalls(out, scmap, events):
    """syscall_map.tsv: kind specific (the events named, an enter event and
    the exit after it), generic (the generic events with the syscall's
    ppm_sc code) or none (generic events, no ppm_sc code)."""
    ids = {e['enum']: e['id'] for e in events}
    o = ['/* Generated by driver/gen_tables.py from driver/syscall_map.tsv: do not edit. */',
         '#ifndef SYSCALL_TABLE_H', '#define SYSCALL_TABLE_H', '',
         '/* x86_64 syscall number -> event ids and ppm_sc code (e5c53d64 layout).',
         ' * kind: 0 no entry (generic event, unknown ppm_sc), 1 specific event,',
         ' * 2 generic event (PPME_GENERIC_E/X with the ppm_sc code as ID). */',
         'struct syscall_evt_pair {', '\tunsigned short enter_event;',
         '\tunsigned short exit_event;', '\tunsigned short ppm_sc;',
         '\tunsigned char kind;', '};', '']
    maxnr = max(int(r['nr']) for r in scmap)
    o.append('#define SYSCALL_TABLE_SIZE %d' % (maxnr + 1))
    o.append('static const struct syscall_evt_pair g_syscall_table[SYSCALL_TABLE_SIZE] = {')
    for r in scmap:
        where = 'syscall_map.tsv %s (%s)' % (r['nr'], r['syscall'])
        if r['kind'] not in ('specific', 'generic', 'none'):
            fail('%s: kind %r is not specific, generic or none' % (where, r['kind']))
        if r['kind'] == 'none':
            continue
        ent, k = 0, 2
        if r['kind'] == 'specific':
            if r['enter'] not in ids or ids[r['enter']] & 1:
                fail('%s: %r is not an enter event of events.tsv' % (where, r['enter']))
            ent = ids[r['enter']]
            # no driver fills its events: the generic ones
            k = 2 if events[ent]['filler'] == '-' else 1
        sc = r['ppm_sc_id'] or '0'
        o.append('\t[%s] = { %d, %d, %s, %d }, /* %s */' % (r['nr'], ent, ent + 1, sc, k, r['syscall']))
    o += ['};', '', '/* x86_64 syscall numbers by name (the drivers cannot include the',
          ' * kernel\'s unistd.h: vmlinux.h has no macros) */', 'enum syscall_nr {']
    o += ['\tSYSCALL_NR_%s = %s,' % (r['syscall'].upper(), r['nr']) for r in scmap]
    o += ['};', '', '#endif']
    out.write('\n'.join(o) + '\n')


def gen_flags(out, flags, scmap):
    tables = {}
    for r in flags:
        tables.setdefault(r['table'], []).append(r)
    # syscall names indexed by ppm_sc code (e5c53d64 names)
    scnames = {}
    for r in tables.pop('ppm_sc_codes', []):
        scnames[int(r['value'])] = r['name']
    for r in scmap:
        sc = r['ppm_sc_id']
        if sc and int(sc) not in scnames:
            enum = r['ppm_sc']
            scnames[int(sc)] = SC_NAME_OVERRIDES.get(enum, enum[len('PPM_SC_'):].lower())
    o = ['/* Generated by driver/gen_tables.py from driver/flags.tsv: do not edit. */',
         '#include "event_table.h"', '']
    names = []
    for t, rows in tables.items():
        rows.sort(key=lambda r: int(r['order']))
        if t.endswith('_dynamic_param'):
            o.append('const struct ppm_dyn_param %s[] = {' % t)
            for r in rows:
                ty, fmt = r['name'].split(':')
                o.append('\t{ %s, %s },' % (ty, fmt))
            o.append('\t{ 0, 0 }')
            o.append('};')
            continue
        names.append(t)
        o.append('const struct ppm_name_value %s[] = {' % t)
        for r in rows:
            o.append('\t{ %s, %sLL },' % (cstr(r['name']), r['value']))
        o.append('\t{ 0, 0 }')
        o.append('};')
    o.append('')
    o.append('const struct flag_table g_flag_tables[] = {')
    for t in names:
        o.append('\t{ %s, %s },' % (cstr(t), t))
    o.append('\t{ 0, 0 }')
    o.append('};')
    o.append('')
    maxsc = max(scnames)
    o.append('const unsigned g_ppm_sc_count = %d;' % (maxsc + 1))
    o.append('const char *const g_ppm_sc_names[%d] = {' % (maxsc + 1))
    for k in sorted(scnames):
        o.append('\t[%d] = %s,' % (k, cstr(scnames[k])))
    o.append('};')
    out.write('\n'.join(o) + '\n')
    return tables, names


def linux_value(r):
    """The Linux value of a flags.tsv row: VALUE (the flag is set when all its
    bits are), any:VALUE (when any of them is: O_TMPFILE, as the reference
    driver), VALUE/MASK (a field of the mask) or empty."""
    v = r['linux']
    return v[len('any:'):] if v.startswith('any:') else v


def gen_ppm_flags(out, flags):
    """ppm_flags.h: the PPM_* constants (c_name column) and the conversions
    of the Linux values (linux column); plain C for eBPF, module and userspace."""
    o = ['/* Generated by driver/gen_tables.py from driver/flags.tsv: do not edit. */',
         '#ifndef PPM_FLAGS_H', '#define PPM_FLAGS_H', '',
         '#ifndef __always_inline', '#define __always_inline inline __attribute__((always_inline))',
         '#endif', '', '/* the values of the event table (flags.tsv c_name) */']
    seen = {}
    for r in flags:
        n = r['c_name']
        if not n.startswith('PPM_'):
            continue
        if n in seen:
            if seen[n] != r['value']:
                fail('flags.tsv: %s is %s and %s' % (n, seen[n], r['value']))
            continue
        seen[n] = r['value']
        o.append('#define %s %s' % (n, r['value'] if not r['value'].startswith('-') else '(%s)' % r['value']))
    tables = {}
    for r in flags:
        tables.setdefault(r['table'], []).append(r)
    o += ['', '/* Linux x86_64 values (flags.tsv linux) */']
    for t in list(BIT_CONVERSIONS) + list(ENUM_CONVERSIONS):
        for r in tables[t]:
            lx = linux_value(r)
            if lx and '/' not in lx:
                o.append('#define LX_%s %s' % (r['name'], oct(int(lx, 0)).replace('0o', '0')
                                               if lx.startswith('0o') else lx))

    def ppm(r):
        return r['c_name'] if r['c_name'] in seen else r['value']
    for t, (fn, ty) in BIT_CONVERSIONS.items():
        o += ['', 'static __always_inline unsigned int %s(%s f)' % (fn, ty), '{',
              '\tunsigned int r = 0;', '']
        fields = {}
        for r in tables[t]:
            if '/' in r['linux']:
                v, m = r['linux'].split('/')
                fields.setdefault(m, []).append((v, r))
        for m, entries in fields.items():
            o.append('\tswitch (f & %s) {' % m)
            for v, r in entries:
                if v != 'default':
                    o += ['\tcase %s:' % v, '\t\tr |= %s;' % ppm(r), '\t\tbreak;']
            for v, r in entries:
                if v == 'default':
                    o += ['\tdefault:', '\t\tr |= %s;' % ppm(r)]
            o.append('\t}')
        for r in tables[t]:
            if r['linux'].startswith('any:'):
                o += ['\tif (f & LX_%s)' % r['name'], '\t\tr |= %s;' % ppm(r)]
            elif r['linux'] and '/' not in r['linux']:
                o += ['\tif ((f & LX_%s) == LX_%s)' % (r['name'], r['name']),
                      '\t\tr |= %s;' % ppm(r)]
        o += ['\treturn r;', '}']
    for t, (fn, ty) in ENUM_CONVERSIONS.items():
        o += ['', 'static __always_inline unsigned int %s(%s v)' % (fn, ty), '{',
              '\tswitch (v) {']
        for r in tables[t]:
            if r['linux']:
                o += ['\tcase LX_%s:' % r['name'], '\t\treturn %s;' % ppm(r)]
        o += ['\t}', '\treturn 0;', '}']
    o += ['', '/* the mode of an open: only when the flags create a file (PPM_S_* = Linux bits) */',
          'static __always_inline unsigned int open_mode_to_ppm(unsigned long long flags,',
          '\t\t\t\t\t\t     unsigned long long mode)', '{',
          '\treturn (flags & (LX_O_CREAT | LX_O_TMPFILE)) ? mode & 07777 : 0;', '}',
          '', '#endif']
    out.write('\n'.join(o) + '\n')


def gen_flags_h(out, tables, names):
    o = ['/* Generated by driver/gen_tables.py from driver/flags.tsv: do not edit. */',
         '#ifndef FLAG_TABLES_H', '#define FLAG_TABLES_H', '']
    for t in tables:
        kind = 'ppm_dyn_param' if t.endswith('_dynamic_param') else 'ppm_name_value'
        o.append('extern const struct %s %s[];' % (kind, t))
    o += ['', '#endif']
    out.write('\n'.join(o) + '\n')


def info_entry(id_, name, category, flags, params):
    """One g_event_info[] initializer: params as (name, PT_, PF_, info)."""
    cat = sum(CATEGORIES[c] for c in category.split('|'))
    fl = sum(EVENT_FLAGS[f] for f in flags.split(','))
    ps = []
    for pname, ty, fmt, info in params:
        names, dyn, dirfd = '0', '0', -1
        if info.startswith('dirfd=param'):
            dirfd = int(info[len('dirfd=param'):])
        elif info.endswith(']'):
            dyn = info.split('[')[0]
        elif info:
            names = info
        ps.append('{ %s, %s, %s, %d, %s, %s }' % (cstr(pname), ty, fmt, dirfd, names, dyn))
    return '\t[%s] = { %s, %d, %d, %d, { %s } },' % (id_, cstr(name), cat, fl, len(ps), ', '.join(ps))


def gen_events(out, events, ext):
    o = ['/* Generated by driver/gen_tables.py from driver/events.tsv: do not edit. */',
         '#include "event_table.h"', '',
         'const struct ppm_event_info g_event_info[PPM_EVENT_MAX] = {']
    for e in events:
        o.append(info_entry(e['id'], e['name'], e['category'], e['flags'], e['params']))
    o.append('};')
    o += ['', '/* our own events (ext_events.tsv), indexed from PPM_EXT_EVENT_FIRST */',
          'const struct ppm_event_info g_ext_event_info[PPM_EXT_EVENT_END - PPM_EXT_EVENT_FIRST] = {']
    first = int(ext[0]['id'])
    for e in ext:
        params = [tuple(p.split(':')) + ('',) for p in e['params'].split('|') if p][:int(e['nparams'])]
        o.append(info_entry(int(e['id']) - first, e['name'], e['category'], e['flags'], params))
    o.append('};')
    out.write('\n'.join(o) + '\n')


def main():
    src, dst = sys.argv[1], sys.argv[2]
    os.makedirs(dst, exist_ok=True)
    events = load_events(src)
    flags = read_tsv(os.path.join(src, 'flags.tsv'))
    scmap = read_tsv(os.path.join(src, 'syscall_map.tsv'))
    ptypes = read_tsv(os.path.join(src, 'param_type_ids.tsv'))
    ext = read_tsv(os.path.join(src, 'ext_events.tsv'))
    with open(os.path.join(dst, 'event_ids.h'), 'w') as f:
        gen_ids(f, events, ext, ptypes, schema_hash(src))
    with open(os.path.join(dst, 'syscall_table.h'), 'w') as f:
        gen_syscalls(f, scmap, events)
    with open(os.path.join(dst, 'flag_tables.c'), 'w') as f:
        tables, names = gen_flags(f, flags, scmap)
    with open(os.path.join(dst, 'flag_tables.h'), 'w') as f:
        gen_flags_h(f, tables, names)
    with open(os.path.join(dst, 'event_table.c'), 'w') as f:
        gen_events(f, events, ext)
    with open(os.path.join(dst, 'fill_table.h'), 'w') as f:
        gen_fill(f, events)
    with open(os.path.join(dst, 'ppm_flags.h'), 'w') as f:
        gen_ppm_flags(f, flags)


if __name__ == '__main__':
    main()
