#!/usr/bin/env python3
"""container_events.py SYSDIG TESTDIR [CSYSDIG] - container events, ours vs sysdig 0.29.3.

The container events at the start of a file (open-multiple-files.scap) are
consumed while the reference opens it: they keep their event numbers but are
not shown (not even with -D), not counted by -n and not seen by chisels. A
container event later in a file is an event like the others. The later case
is a copy of ref_net4.scap with a container JSON event block appended (the
v2 event block layout of docs/scap_format). The container table: the names
and images come from the container events (container.* fields, a chisel's
sysdig.get_container_table(), csysdig's containers views); a copy of
open-multiple-files.scap without its container events has the containers
its threads' cgroups name, with no name and no image. Exit 77 (SKIPPED)
without the reference."""
import gzip
import os
import struct
import subprocess
import sys
import tempfile

REF = '/usr/bin/sysdig'


def with_container_event(src, dst):
    data = open(src, 'rb').read()
    json = (b'{"container":{"id":"0123456789ab","image":"busybox:latest","ip":"0.0.0.0",'
            b'"name":"late_one","type":0}}\x00')
    # the timestamp of the last event + 1 ns (last block: its event header)
    last_len = struct.unpack_from('<I', data, len(data) - 4)[0]
    ts = struct.unpack_from('<Q', data, len(data) - last_len + 8 + 2)[0] + 1
    event = struct.pack('<QQIHI', ts, 0, 26 + 2 + len(json), 272, 1) + struct.pack('<H', len(json)) + json
    body = struct.pack('<H', 0) + event
    body += b'\x00' * (-len(body) % 4)
    total = 8 + len(body) + 4
    open(dst, 'wb').write(data + struct.pack('<II', 0x216, total) + body + struct.pack('<I', total))


EVENT_BLOCKS = {0x204: 0, 0x8010ABCD: 0, 0x216: 0, 0x208: 4, 0x217: 4}  # -> flags word size
CONTAINER_EVENTS = (228, 272, 324)


def without_container_events(src, dst):
    """src (gzip or not) without its container event blocks"""
    data = open(src, 'rb').read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    out, o = bytearray(), 0
    while o + 8 <= len(data):
        btype, blen = struct.unpack_from('<II', data, o)
        if blen < 12:
            raise ValueError('bad block at %d' % o)
        skip = False
        if btype in EVENT_BLOCKS:
            # block header, cpuid u16, [flags u32], ts u64, tid u64, len u32, type u16
            etype = struct.unpack_from('<H', data, o + 8 + 2 + EVENT_BLOCKS[btype] + 20)[0]
            skip = etype in CONTAINER_EVENTS
        if not skip:
            out += data[o:o + blen]
        o += blen
    open(dst, 'wb').write(out)


CONTAINER_TABLE_CHISEL = """description = "prints the container table"
short_description = "container table"
category = "misc"
args = {}
function on_capture_end()
    for i, c in ipairs(sysdig.get_container_table()) do
        print(i, c.id, c.name, c.image, c.type)
    end
end
"""


def run(binary, args, cwd=None):
    p = subprocess.run([binary] + args, capture_output=True, env=dict(os.environ, TZ='UTC'),
                       timeout=120, cwd=cwd)
    return p.returncode, p.stdout


def run_rows(binary, args, cwd):
    """csysdig --raw: rows as a multiset (the reference's sort is unstable)"""
    rc, out = run(binary, args, cwd)
    return rc, b''.join(sorted(out.splitlines(True)))


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    if not os.access(REF, os.X_OK):
        print('SKIPPED: %s missing' % REF)
        return 77
    ours, testdir = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        late = os.path.join(tmp, 'late_container.scap')
        with_container_event(os.path.join(testdir, 'traces', 'ref_net4.scap'), late)
        lead = os.path.join(testdir, 'traces', 'open-multiple-files.scap')
        bare = os.path.join(tmp, 'no_container_events.scap')
        without_container_events(lead, bare)
        chisel = os.path.join(tmp, 'ctable.lua')
        open(chisel, 'w').write(CONTAINER_TABLE_CHISEL)
        fmt = '%evt.num %container.id %container.name %container.type %container.privileged'
        cases = [
            [lead, '-n', '5', '-D'],
            [lead, '-n', '2', '-p', '%evt.num %evt.type'],
            [lead, '-p', '%evt.num', 'evt.type=container'],
            [lead, '-pc', '-n', '1200', '-p', '%evt.num %container.name %container.image'],
            [late, '-p', '%evt.num %evt.type %evt.args', 'evt.type=container'],
            [late, '-n', '3', '-p', '%evt.num', 'evt.num>470'],
            [late, '-D', '-p', '%evt.num %evt.type', 'evt.num>470'],
            [late],
            [lead, '-c', chisel],
            [bare, '-c', chisel],
            [lead, '-p', fmt],
            [bare, '-p', fmt],
            [bare, '-pc', '-n', '30'],
            [lead, '-p', '%evt.num', 'container.name=falco or container.image=node:latest'],
            [bare, '-p', '%evt.num', 'container.name exists'],
        ]
        runs = [(REF, ours, c, run) for c in cases]
        if len(sys.argv) > 3:
            # csysdig views on the container table (run where no ./chisels is)
            for trace in (lead, bare):
                for view in ('containers', 'containers_errors', 'procs', 'threads'):
                    runs.append(('/usr/bin/csysdig', os.path.abspath(sys.argv[3]), [trace, '--raw', '-v', view, '-pc'],
                                 lambda b, a: run_rows(b, a, tmp)))
        fails = 0
        for ref, binary, c, runner in runs:
            args = ['-r'] + c
            want, got = runner(ref, args), runner(binary, args)
            if want != got:
                fails += 1
                print('FAIL %s: rc %d vs %d, %d vs %d bytes; reference tail %r, ours %r' % (
                    ' '.join(args), got[0], want[0], len(got[1]), len(want[1]),
                    want[1][-200:], got[1][-200:]))
        print('%d/%d container event cases as the reference' % (len(runs) - fails, len(runs)))
        return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
