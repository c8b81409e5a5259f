#!/usr/bin/env python3
"""check_listing.py SYSDIG [TEST_DIR] - `-cl` and `-i NAME` of our chisel
library against golden/_global (chisels_cl.txt, i_NAME.txt and their
stderr/exit code), byte for byte.  Our own chisels (not in sysdig 0.29.3)
say so in -cl ("[sysdig-c]" ending their line): those lines are left out
of the comparison, and each must name a chisel the reference does not list.
Prints "N passed, N failed"."""
import os
import subprocess
import sys

binary = os.path.abspath(sys.argv[1])
test_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
g = os.path.join(test_dir, 'golden', '_global')
env = dict(os.environ, TZ='UTC')
env.pop('SYSDIG_CHISEL_DIR', None)
passed = failed = 0
cases = [('chisels_cl', ['-cl'])]
cases += [(f[:-4], ['-i', f[2:-4]]) for f in sorted(os.listdir(g))
          if f.startswith('i_') and f.endswith('.txt') and not f.endswith('.stderr.txt')]


def strip_ours(listing, reference):
    """-cl without our own chisels' lines; None if one names a reference chisel"""
    known = {line.split(b' ')[0] for line in reference.split(b'\n')}
    kept = []
    for line in listing.split(b'\n'):
        if line.endswith(b'[sysdig-c]'):
            if line.split(b' ')[0] in known:
                return None
            continue
        kept.append(line)
    return b'\n'.join(kept)


for tag, args in cases:
    p = subprocess.run([binary] + args, cwd='/', env=env, capture_output=True)
    want = open(os.path.join(g, tag + '.txt'), 'rb').read()
    if args == ['-cl']:
        p.stdout = strip_ours(p.stdout, want)
    errf = os.path.join(g, tag + '.stderr.txt')
    want_err = open(errf, 'rb').read() if os.path.exists(errf) else b''
    if p.stdout == want and p.stderr == want_err and (p.returncode != 0) == bool(want_err):
        passed += 1
    else:
        failed += 1
        print(f'FAIL {" ".join(args)}')
print(f'chisel listing: {passed} passed, {failed} failed')
sys.exit(0 if failed == 0 else 1)
