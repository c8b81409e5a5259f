#!/usr/bin/env python3
"""container_events.py SYSDIG TESTDIR - container events, ours vs sysdig 0.29.3.

The container events at the start of a file (open-multiple-files.scap) are
consumed while the reference opens it: they keep their event numbers but are
not shown (not even with -D), not counted by -n and not seen by chisels. A
container event later in a file is an event like the others. The later case
is a copy of ref_net4.scap with a container JSON event block appended (the
v2 event block layout of docs/scap_format). Exit 77 (SKIPPED) without the
reference."""
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


def run(binary, args):
    p = subprocess.run([binary] + args, capture_output=True, env=dict(os.environ, TZ='UTC'), timeout=120)
    return p.returncode, p.stdout


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
        cases = [
            [lead, '-n', '5', '-D'],
            [lead, '-n', '2', '-p', '%evt.num %evt.type'],
            [lead, '-p', '%evt.num', 'evt.type=container'],
            [lead, '-pc', '-n', '1200', '-p', '%evt.num %container.name %container.image'],
            [late, '-p', '%evt.num %evt.type %evt.args', 'evt.type=container'],
            [late, '-n', '3', '-p', '%evt.num', 'evt.num>470'],
            [late, '-D', '-p', '%evt.num %evt.type', 'evt.num>470'],
            [late],
        ]
        fails = 0
        for c in cases:
            args = ['-r'] + c
            want, got = run(REF, args), run(ours, args)
            if want != got:
                fails += 1
                print('FAIL %s: rc %d vs %d, %d vs %d bytes; reference tail %r, ours %r' % (
                    ' '.join(args), got[0], want[0], len(got[1]), len(want[1]),
                    want[1][-200:], got[1][-200:]))
        print('%d/%d container event cases as the reference' % (len(cases) - fails, len(cases)))
        return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
