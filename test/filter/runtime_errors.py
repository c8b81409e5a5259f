#!/usr/bin/env python3
"""Filters that fail while they run, and port values (runtime_errors.tsv).

usage: runtime_errors.py SYSDIG

For each row runs `SYSDIG -r TRACE -p %evt.num FILTER` and compares the exit
status, the events printed before the error and stderr with what sysdig
0.29.3 gave (the rows were recorded from it; run this script with
/usr/bin/sysdig as SYSDIG to see that it still gives them).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.path.normpath(os.path.join(HERE, '..', 'traces'))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sysdig = sys.argv[1]
    fails = total = 0
    for line in open(os.path.join(HERE, 'runtime_errors.tsv'), encoding='utf-8'):
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        rid, trace, flt, rc, nums, err = line.split('\t')
        p = subprocess.run([sysdig, '-r', os.path.join(TRACES, trace + '.scap'),
                            '-p', '%evt.num', flt], capture_output=True, timeout=60,
                           env=dict(os.environ, TZ='UTC'))
        got = (p.returncode, ','.join(p.stdout.decode().split()),
               p.stderr.decode(errors='replace').rstrip('\n'))
        total += 1
        if got != (int(rc), nums, err):
            fails += 1
            print('FAIL %s %s %r: got rc=%d %r %r, want rc=%s %r %r' % (
                rid, trace, flt, got[0], got[1][:80], got[2], rc, nums[:80], err))
    print('%d/%d runtime filter errors as 0.29.3' % (total - fails, total))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
