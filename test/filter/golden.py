#!/usr/bin/env python3
"""Filter conformance goldens: generate them with the reference, or check ours.

usage: golden.py gen   [--ref /usr/bin/sysdig] [--only ID,...]  (writes golden/)
       golden.py check SYSDIG [--only ID,...]           (exit 1 on any difference)

For every filter of filters.tsv and every trace of test/traces, runs
`SYSDIG -r TRACE -p "%evt.num" FILTER` with TZ=UTC.  Outputs up to 64 KiB are
stored as golden/<trace>/<id>.txt; longer ones as "sha256 <hex> <lines>" in
golden/<trace>/<id>.sha (keeps the repository small).  A filter the reference
rejects stores its stderr and exit status in golden/<trace>/<id>.err instead.
`check` also compares the 26 filter goldens of test/golden/*/f*.txt (their
filters are listed in test/golden/README.md) and errors.tsv (bad filters: the
exact message and exit status 1).
"""
import hashlib
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import golden_cli  # noqa: E402
from known import Known  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..'))
TRACES = ['cat_write', 'connect_localhost', 'empty', 'open-multiple-files',
          'ping_sendto', 'syscall', 'ref029_light', 'ref029_net_small',
          'ref_net4', 'ref_net6', 'ref_failconn', 'ref_presock', 'ref_threads', 'ref_pidns',
          'ref_busybox']
MAXTXT = 64 * 1024


def load_tsv(name):
    rows = []
    for line in open(os.path.join(HERE, name), encoding='utf-8'):
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        if name == 'filters.tsv':
            fid, flt = line.split('\t', 1)
            ref = flt
            if '\t#ref\t' in flt:
                flt, ref = flt.split('\t#ref\t')
            rows.append((fid, flt, ref))
        else:
            rows.append(line.split('\t'))
    return rows


def run(sysdig, trace, flt):
    env = dict(os.environ, TZ='UTC')
    try:
        p = subprocess.run([sysdig, '-r', os.path.join(TOP, 'test/traces', trace + '.scap'),
                            '-p', '%evt.num', flt], capture_output=True, env=env, timeout=120)
    except subprocess.TimeoutExpired:
        return -999, b'', b'timeout'
    return p.returncode, p.stdout, p.stderr


def summary(out):
    return 'sha256 %s %d\n' % (hashlib.sha256(out).hexdigest(), out.count(b'\n'))


def expected(trace, fid):
    base = os.path.join(HERE, 'golden', trace, fid)
    for ext in ('.txt', '.sha', '.err'):
        if os.path.exists(base + ext):
            return ext, open(base + ext, 'rb').read()
    return None, None


def actual_as(ext, rc, out, err):
    if ext == '.err':
        return b'rc=%d\n' % rc + err
    if rc != 0:
        return b'rc=%d\n' % rc + err
    return out if ext == '.txt' else summary(out).encode()


def gen(ref, only):
    traces = golden_cli.option('--trace').split(',') if golden_cli.option('--trace') else TRACES
    for trace in traces:
        d = os.path.join(HERE, 'golden', trace)
        os.makedirs(d, exist_ok=True)
        for fid, flt, reff in load_tsv('filters.tsv'):
            if only and fid not in only:
                continue
            rc, out, err = run(ref, trace, reff)
            for ext in ('.txt', '.sha', '.err'):
                if os.path.exists(os.path.join(d, fid + ext)):
                    os.unlink(os.path.join(d, fid + ext))
            if rc != 0:
                ext, data = '.err', b'rc=%d\n' % rc + err
            elif len(out) <= MAXTXT:
                ext, data = '.txt', out
            else:
                ext, data = '.sha', summary(out).encode()
            open(os.path.join(d, fid + ext), 'wb').write(data)


def readme_filters():
    """f01..f26 and ferr01/02 from test/golden/README.md"""
    res = {}
    for line in open(os.path.join(TOP, 'test/golden/README.md'), encoding='utf-8'):
        m = re.match(r'\| (f\d\d|ferr\d\d) \| `(.*?)` \|', line)
        if m:
            res[m.group(1)] = m.group(2)
    return res


def check(sysdig, only):
    fails = total = 0
    known = Known('filter_goldens')

    def report(ok, what, case):
        nonlocal fails, total
        total += 1
        if ok:
            known.passed(case)
        elif known.failed(case, what):
            fails += 1

    for fid, flt in sorted(readme_filters().items()):
        if only and fid not in only:
            continue
        for trace in TRACES:
            gd = os.path.join(TOP, 'test/golden', trace)
            rc, out, err = run(sysdig, trace, flt)
            if fid.startswith('ferr'):
                want = open(os.path.join(gd, fid + '.stderr.txt'), 'rb').read()
                report(rc == 1 and err == want, '%s %s: %r' % (trace, fid, err[:200]),
                       '%s %s' % (trace, fid))
            else:
                want = open(os.path.join(gd, fid + '.txt'), 'rb').read()
                report(rc == 0 and out == want, '%s %s (%s): rc=%d %d vs %d lines %r' % (
                    trace, fid, flt, rc, out.count(b'\n'), want.count(b'\n'), err[:200]),
                    '%s %s' % (trace, fid))
    for fid, flt, _ in load_tsv('filters.tsv'):
        if only and fid not in only:
            continue
        for trace in TRACES:
            ext, want = expected(trace, fid)
            if ext is None:
                continue
            rc, out, err = run(sysdig, trace, flt)
            got = actual_as(ext, rc, out, err)
            report(got == want, '%s %s (%s): rc=%d %d vs %d lines %r' % (
                trace, fid, flt, rc, got.count(b'\n'), want.count(b'\n'), err[:200]),
                '%s %s' % (trace, fid))
    for row in load_tsv('errors.tsv'):
        fid, flt, msg = row[0], row[1], row[2]
        if only and fid not in only:
            continue
        rc, out, err = run(sysdig, 'cat_write', flt)
        report(rc == 1 and err.decode(errors='replace').rstrip('\n') == msg,
               '%s (%s): rc=%d %r want %r' % (fid, flt, rc, err[:200], msg), fid)
    print('%d/%d filter goldens passed, %s' % (total - fails - known.known, total, known.summary()))
    return 1 if fails else 0


def main():
    return golden_cli.main(__doc__, gen, check)


if __name__ == '__main__':
    sys.exit(main())
