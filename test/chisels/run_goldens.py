#!/usr/bin/env python3
"""run_goldens.py - run every chisel command of test/golden/index.tsv
(tags c_*, A_c_*, x_json_c_*) with the sysdig under test and compare stdout,
stderr and exit code with the reference's golden files (chiselcmp rules).

usage: run_goldens.py SYSDIG_BINARY [TEST_DIR] [-k SUBSTRING] [--path DIR]
--path DIR runs DIR/NAME.lua instead of NAME (to check our chisel library
on the reference binary: SYSDIG_CHISEL_DIR=DIR run_goldens.py /usr/bin/sysdig --path DIR)
Exits 0 only when every case passes; prints "N passed, N failed".
"""
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chiselcmp  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from known import Known  # noqa: E402


def cases(test_dir):
    with open(os.path.join(test_dir, 'golden', 'index.tsv')) as f:
        for line in f.read().splitlines()[1:]:
            trace, cmd, out, rc, err = line.split('\t')
            tag = os.path.basename(out)[:-4]
            if re.match(r'^(c_|A_c_|x_json_c_)', tag):
                yield cmd, out, int(rc), err


def run(binary, test_dir, cmd, env, chisel_path=None):
    argv = shlex.split(cmd)
    assert argv[0].startswith('TZ=') and argv[1] == 'sysdig'
    if chisel_path:
        i = argv.index('-c') + 1
        argv[i] = os.path.join(chisel_path, argv[i] + '.lua')
    p = subprocess.run([binary] + argv[2:], cwd=test_dir, env=env, capture_output=True, timeout=300)
    return p.returncode, p.stdout.decode(errors='surrogateescape'), p.stderr.decode(errors='surrogateescape')


def chisel_of(cmd):
    argv = shlex.split(cmd)
    return argv[argv.index('-c') + 1], '-j' in argv


def read(test_dir, path):
    with open(os.path.join(test_dir, path), 'rb') as f:
        return f.read().decode(errors='surrogateescape')


def main():
    args = [a for a in sys.argv[1:]]
    only = None
    if '-k' in args:
        i = args.index('-k')
        only = args[i + 1]
        del args[i:i + 2]
    path = None
    if '--path' in args:
        i = args.index('--path')
        path = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    binary = os.path.abspath(args[0])
    test_dir = args[1] if len(args) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    env = dict(os.environ, TZ='UTC')
    passed = failed = 0
    known = Known('chisel_goldens')
    for cmd, out, rc, err in cases(test_dir):
        if only and only not in out:
            continue
        chisel, json_mode = chisel_of(cmd)
        try:
            got_rc, got_out, got_err = run(binary, test_dir, cmd, env, path)
        except subprocess.TimeoutExpired:
            got_rc, got_out, got_err = -1, '', 'timeout'
        want_err = read(test_dir, err) if err != '-' else ''
        ok, msg = chiselcmp.compare_auto(chisel, got_out, read(test_dir, out), json_mode)
        if ok and got_rc != rc:
            ok, msg = False, f'exit code {got_rc}, reference {rc}'
        if ok and got_err != want_err:
            ok, msg = False, f'stderr {got_err[:100]!r}, reference {want_err[:100]!r}'
        if ok:
            passed += 1
            known.passed(out)
        elif known.failed(out, msg):
            failed += 1
    print(f'chisel goldens: {passed} passed, {failed} failed, {known.summary()}')
    sys.exit(0 if failed == 0 and passed > 0 else 1)


if __name__ == '__main__':
    main()
