#!/usr/bin/env python3
"""scsummary_files.py SYSDIG TEST_DIR - `sysdig -r TRACE -c scsummary [ARGS]`
against exact expectations (test/chisels/scsummary/*.txt), written by
scsummary_expect.py from the reference's event listing of the trace.  When
the reference binary is installed, each expectation is also recomputed from
its listing now, so a stale file is caught.  Prints "N passed, N failed".
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REF = '/usr/bin/sysdig'
LISTING = ['-p', '*%evt.type|%evt.rawres|%evt.res|%evt.latency|%proc.pid|%thread.tid|%proc.name',
           'evt.dir=< and evt.type!=tracer']
# expectation file, trace, chisel arguments
CASES = [
    ('ref029_light', 'ref029_light', ''),
    ('ref029_net_small', 'ref029_net_small', ''),
    ('cat_write_proc_hist', 'cat_write', 'proc hist'),
    ('connect_localhost_thread_hist', 'connect_localhost', 'thread hist'),
    ('ping_sendto_proc', 'ping_sendto', 'proc'),
]


def main():
    binary, test_dir = os.path.abspath(sys.argv[1]), sys.argv[2]
    env = dict(os.environ, TZ='UTC')
    passed = failed = 0
    for name, trace, args in CASES:
        path = os.path.join(test_dir, 'traces', trace + '.scap')
        want = open(os.path.join(HERE, 'scsummary', name + '.txt'), 'rb').read()
        cmd = [binary, '-r', path, '-c', 'scsummary'] + ([args] if args else [])
        got = subprocess.run(cmd, env=env, capture_output=True)
        problems = []
        if got.returncode != 0 or got.stderr:
            problems.append(f'exit {got.returncode}, stderr {got.stderr[:200]!r}')
        if got.stdout != want:
            a, b = got.stdout.decode().splitlines(), want.decode().splitlines()
            first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            problems.append(f'line {first + 1}: ours {a[first] if first < len(a) else None!r}, '
                            f'expected {b[first] if first < len(b) else None!r}')
        if os.access(REF, os.X_OK):
            listing = subprocess.run([REF, '-r', path] + LISTING, env=env, capture_output=True, check=True)
            fresh = subprocess.run([sys.executable, os.path.join(HERE, 'scsummary_expect.py')] + args.split(),
                                   input=listing.stdout, capture_output=True, check=True)
            if fresh.stdout != want:
                problems.append('the expectation file differs from the one computed from the reference now')
        if problems:
            failed += 1
            print(f'FAIL {name}: ' + '; '.join(problems))
        else:
            passed += 1
    print(f'scsummary on files: {passed} passed, {failed} failed')
    sys.exit(0 if failed == 0 else 1)


if __name__ == '__main__':
    main()
