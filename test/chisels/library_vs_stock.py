#!/usr/bin/env python3
"""library_vs_stock.py - our chisel library against sysdig's own chisels,
both run by the reference binary /usr/bin/sysdig (so only the Lua differs):
every chisel of chisels/ that sysdig also ships, with a few argument sets,
on every trace, outputs compared with the chiselcmp rules (ties in tables
and Lua pairs order are unspecified).  Runs in a scratch directory because
udp_extract and the dump options write files.

usage: library_vs_stock.py CHISEL_DIR [TEST_DIR] [-k NAME]
Exit 77 (skip) when /usr/bin/sysdig or its chisels are missing; otherwise
prints "N passed, N failed" and exits 0 only if nothing failed.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chiselcmp  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from known import Known  # noqa: E402

STOCK = '/usr/share/sysdig/chisels'
REF = '/usr/bin/sysdig'
# chisel -> list of (extra sysdig options, chisel argument string or None)
CASES = {
    'fileslower': [([], '0'), (['-pc'], '0 disable_color')],
    'netlower': [([], '0'), (['-pc'], '0')],
    'scallslower': [([], '0'), (['-pc'], '1 disable_color')],
    'spy_ip': [([], '127.0.0.1'), (['-X'], '127.0.0.1 disable_colors')],
    'spy_port': [([], '8080'), (['-A'], '8080 disable_colors')],
    'spy_file': [([], None), ([], 'W'), ([], "R /etc/ld.so.cache")],
    'httptop': [([], None), ([], 'time'), ([], 'bytes'), ([], 'bad')],
    'httplog': [([], None), (['-pc'], None)],
    'proc_exec_time': [([], None), (['-pc'], 'disable_colors')],
    'list_login_shells': [([], None), (['-pc'], None), ([], 'ls'), ([], "'*' -l")],
    'around': [([], 'dump.scap')],
    'spy_logs': [([], None), (['-pc'], None), ([], 'dump.scap 100')],
    'spy_syslog': [([], None), (['-pc'], None)],
    'fdbytes_by': [([], 'fd.name')], 'fdcount_by': [([], 'proc.name')],
    'fdtime_by': [([], 'fd.name')], 'iobytes': [([], None)],
    'lsof': [([], None), ([], 'proc.name=cat')], 'ps': [([], None)], 'netstat': [([], None)],
}
SKIP = ('table_generator', 'wsysdig_summary')
# chisels whose filter argument comes after -c NAME
AFTER = {'around': ['evt.type=execve']}


def chisels(ours):
    out = []
    for f in sorted(os.listdir(ours)):
        name = f[:-4]
        if not f.endswith('.lua') or name in SKIP or not os.path.exists(os.path.join(STOCK, f)):
            continue
        with open(os.path.join(ours, f)) as fh:
            if 'short_description' in fh.read():
                out.append(name)
    return out


def run(chisel_dir, trace, chisel, extra, arg, cwd):
    argv = [REF, '-r', trace] + extra + ['-c', chisel] + ([arg] if arg else []) + AFTER.get(chisel, [])
    env = dict(os.environ, TZ='UTC', SYSDIG_CHISEL_DIR=chisel_dir)
    try:
        p = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, timeout=300)
    except subprocess.TimeoutExpired:
        return -1, 'timeout'
    return p.returncode, p.stdout.decode(errors='surrogateescape')


def main():
    args = sys.argv[1:]
    only = None
    if '-k' in args:
        only = args[args.index('-k') + 1]
        del args[args.index('-k'):args.index('-k') + 2]
    if not os.path.isdir(STOCK) or not os.access(REF, os.X_OK):
        print(f'SKIP: {STOCK} or {REF} not installed')
        sys.exit(77)
    ours = os.path.abspath(args[0])
    test_dir = args[1] if len(args) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    tdir = os.path.join(test_dir, 'traces')
    traces = sorted(os.path.join(os.path.abspath(tdir), t) for t in os.listdir(tdir) if t.endswith('.scap'))
    passed = failed = 0
    known = Known('chisel_library_vs_stock')
    with tempfile.TemporaryDirectory() as cwd:
        for chisel in chisels(ours):
            if only and chisel != only:
                continue
            for extra, arg in CASES.get(chisel, [([], None)]):
                for trace in traces:
                    rc_r, out_r = run(STOCK, trace, chisel, extra, arg, cwd)
                    rc_o, out_o = run(ours, trace, chisel, extra, arg, cwd)
                    ok, msg = chiselcmp.compare_auto(chisel, out_o, out_r, '-j' in extra)
                    if ok and rc_o != rc_r:
                        ok, msg = False, f'exit {rc_o}, stock {rc_r}'
                    case = f'{chisel} {os.path.basename(trace)}'
                    if ok:
                        passed += 1
                        known.passed(case)
                    elif known.failed(case, f'{" ".join(extra)} {arg or ""}: {msg}'):
                        failed += 1
    print(f'our chisels vs stock on the reference: {passed} passed, {failed} failed, {known.summary()}')
    sys.exit(0 if failed == 0 and passed > 0 else 1)


if __name__ == '__main__':
    main()
