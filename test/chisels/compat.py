#!/usr/bin/env python3
"""compat.py - run every stock chisel of /usr/share/sysdig/chisels (sysdig's
own Lua files, not copied into this repo) on OUR engine over every trace and
compare with what the reference /usr/bin/sysdig prints for the same command
(chiselcmp rules).  k8s/mesos/marathon chisels, chisels that send network
traffic or write files, and the hidden ones are skipped.

usage: compat.py OUR_SYSDIG [TEST_DIR]
Exit 77 (skip) when the stock chisels or the reference binary are missing;
otherwise prints "N passed, N failed" and exits 0 only if nothing failed.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chiselcmp  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from known import Known  # noqa: E402

STOCK = '/usr/share/sysdig/chisels'
REF = '/usr/bin/sysdig'
# chisel -> argument string ('' = none); None = skipped
ARGS = {
    'around': None, 'table_generator': None,
    'wsysdig_summary': None, 'fdbytes_by': 'fd.name', 'fdcount_by': 'proc.name',
    'fdtime_by': 'fd.name', 'fileslower': '0', 'netlower': '0', 'scallslower': '0',
    'spy_ip': '127.0.0.1', 'spy_port': '80',
}
SKIP_WORDS = ('k8s', 'kubernetes', 'mesos', 'marathon')


def stock_chisels():
    out = []
    for f in sorted(os.listdir(STOCK)):
        if not f.endswith('.lua') or f.startswith('v_'):
            continue
        name = f[:-4]
        with open(os.path.join(STOCK, f), errors='replace') as fh:
            text = fh.read()
        if 'short_description' not in text or any(w in name for w in SKIP_WORDS):
            continue
        if ARGS.get(name, '') is None:
            continue
        out.append(name)
    return out


def run(binary, trace, chisel, env, cwd):
    argv = [binary, '-r', trace, '-c', chisel]
    if ARGS.get(chisel):
        argv.append(ARGS[chisel])
    try:
        p = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, timeout=300)
        return p.returncode, p.stdout.decode(errors='surrogateescape')
    except subprocess.TimeoutExpired:
        return -1, 'timeout'


def main():
    if not os.path.isdir(STOCK) or not os.access(REF, os.X_OK):
        print(f'SKIP: {STOCK} or {REF} not installed')
        sys.exit(77)
    ours = os.path.abspath(sys.argv[1])
    test_dir = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    traces = sorted(os.path.join(test_dir, 'traces', t) for t in os.listdir(os.path.join(test_dir, 'traces'))
                    if t.endswith('.scap'))
    env_ref = dict(os.environ, TZ='UTC')
    env_ours = dict(env_ref, SYSDIG_CHISEL_DIR=STOCK)
    passed = failed = 0
    known = Known('chisel_compat_stock')
    for chisel in stock_chisels():
        for trace in traces:
            rc_r, out_r = run(REF, trace, chisel, env_ref, '/tmp')
            rc_o, out_o = run(ours, trace, chisel, env_ours, '/tmp')
            ok, msg = chiselcmp.compare_auto(chisel, out_o, out_r)
            if ok and rc_o != rc_r:
                ok, msg = False, f'exit {rc_o}, reference {rc_r}'
            case = f'{chisel} {os.path.basename(trace)}'
            if ok:
                passed += 1
                known.passed(case)
            elif known.failed(case, msg):
                failed += 1
    print(f'stock chisels on our engine: {passed} passed, {failed} failed, {known.summary()}')
    sys.exit(0 if failed == 0 else 1)


if __name__ == '__main__':
    main()
