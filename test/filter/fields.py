#!/usr/bin/env python3
"""Field conformance goldens: every display field on every trace, vs sysdig 0.29.3.

usage: fields.py gen   [--ref /usr/bin/sysdig] [--only FIELD,...] [--trace NAME,...]
                                                                  (writes fields_golden/)
       fields.py check SYSDIG [--only FIELD,...] [--trace NAME,...] (exit 1 on a difference)

For every trace of test/traces and every field of fields_golden/fields.txt,
runs `SYSDIG -r TRACE -p "%evt.num %FIELD"` with TZ=UTC, one run per (trace,
field) so the result is exactly that command's output (a batched "*%a|%b"
run would print '<NA>' for undefined fields, which cannot be told apart from a
field whose text is '<NA>').  Stored per (trace, field), file name = the field
URL-quoted:
  .txt   stdout when it is at most 16 KiB,
  .sha   "sha256 <hex> <lines>" of a longer stdout (keeps the repository small),
  .err   "rc=N" and stderr when the reference exits non-zero or writes stderr,
  .nondet  the reason, when two runs of the reference printed different things
           (reported NONDET by check, never compared, never silently skipped).
When a .sha differs and the reference is installed, check re-runs it and prints
the first differing lines.  Known differences are listed in
test/known_failures.txt as "filter_fields <trace> <field>".

fields.txt = the fields the reference lists with `sysdig -l`, minus the
classes that cannot apply to a syscall capture (EXCLUDED below), plus the
argument forms of the fields that need or take an argument (VARIANTS).
Fields that are filter-only (fd.ip, fd.net, ...) or need an argument
(evt.arg, evt.type.is, ...) are kept bare too: the reference's error text is
part of the golden.  fields_golden/README.md lists exclusions and the
nondeterministic fields.
"""
import concurrent.futures
import hashlib
import os
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import golden_cli  # noqa: E402
from golden_cli import option  # noqa: E402
from known import Known  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..'))
GOLD = os.path.join(HERE, 'fields_golden')
TRACES = ['cat_write', 'connect_localhost', 'empty', 'open-multiple-files',
          'ping_sendto', 'syscall', 'ref029_light', 'ref029_net_small',
          'ref_net4', 'ref_net6', 'ref_failconn', 'ref_presock', 'ref_threads', 'ref_pidns',
          'ref_busybox']
MAXTXT = 16 * 1024

# field classes of `sysdig -l` that never apply to a syscall capture
EXCLUDED = {
    'k8s': 'Kubernetes metadata comes from a k8s API server (-k), never from a .scap file',
    'mesos': 'Mesos/Marathon metadata comes from a Mesos master (-m), never from a .scap file',
    'span': 'tracer spans (applications writing to /dev/null, sysdig tracers): no tracer events in these '
            'traces, so no value in either tool; the tracer captures have their own goldens '
            '(golden/tracers*, docs/tracers.md)',
    'evtin': 'the open tracer spans an event is inside: no tracer events in these traces, so no value in '
             'either tool; the tracer captures have their own goldens (golden/evtin*, golden/tracers*)',
}

# argument forms of the fields that need (evt.arg, ...) or accept one
VARIANTS = [
    'evt.arg[0]', 'evt.arg[1]', 'evt.arg[2]', 'evt.arg.fd', 'evt.arg.res', 'evt.arg.name',
    'evt.arg.data', 'evt.arg.flags', 'evt.arg.size', 'evt.arg.tuple', 'evt.arg.uid',
    'evt.arg.sig', 'evt.arg.dirfd', 'evt.arg.path', 'evt.arg.addr', 'evt.arg.ptid',
    'evt.arg.exe', 'evt.arg.args', 'evt.arg.cwd', 'evt.arg.fdlimit', 'evt.arg.mode',
    'evt.rawarg.res', 'evt.rawarg.fd', 'evt.rawarg.size', 'evt.rawarg.flags',
    'evt.rawarg.name', 'evt.rawarg.dirfd', 'evt.rawarg.uid', 'evt.rawarg[0]',
    'evt.type.is.open', 'evt.type.is.3', 'evt.around[100]',
    'evt.abspath.src', 'evt.abspath.dst',
    'container.mount[0]', 'container.mount.dest[0]', 'container.mount.source[/tmp]',
    'thread.cgroup.cpuacct', 'thread.cgroup.memory',
    'proc.aname[0]', 'proc.aname[1]', 'proc.aname[5]',
    'proc.apid[0]', 'proc.apid[1]', 'proc.apid[3]', 'proc.apid[x]',
]


# why the reference's output of a field is not reproducible (gen marks a
# (trace, field) .nondet when two runs differ; these are also marked when the
# two runs happened to agree)
NONDET_REASON = {
    'fd.dev': 'uninitialised memory: sysdig 0.29.3 prints garbage (e.g. 563E, 5559, 55A9 '
              'on three runs) as the device of socket and pipe fds',
}
NONDET_REASON['fd.dev.major'] = NONDET_REASON['fd.dev.minor'] = NONDET_REASON['fd.dev']
NONDET_ALSO = {('connect_localhost', 'fd.dev.major'), ('ref029_net_small', 'fd.dev.major')} | {
    (t, 'fd.dev.major') for t in ('ref_net4', 'ref_net6', 'ref_failconn', 'ref_presock',
                                  'ref_threads', 'ref_pidns', 'ref_busybox')}


def fields_from_reference(ref):
    out = subprocess.run([ref, '-l'], capture_output=True, check=True).stdout.decode()
    fields, cls = [], None
    for line in out.split('\n'):
        if line.startswith('Field Class:'):
            cls = line.split()[2]
        elif line[:1].isalpha() and not line.startswith('Description:') and cls not in EXCLUDED:
            fields.append(line.split()[0])
    return sorted(set(fields)) + VARIANTS


def load_fields():
    return [f for f in open(os.path.join(GOLD, 'fields.txt'), encoding='utf-8').read().split('\n') if f]


def run(sysdig, trace, field):
    env = dict(os.environ, TZ='UTC')
    try:
        p = subprocess.run([sysdig, '-r', os.path.join(TOP, 'test/traces', trace + '.scap'),
                            '-p', '%evt.num %' + field], capture_output=True, env=env, timeout=120)
    except subprocess.TimeoutExpired:
        return -999, b'', b'timeout\n'
    return p.returncode, p.stdout, p.stderr


def summary(out):
    return b'sha256 %s %d\n' % (hashlib.sha256(out).hexdigest().encode(), out.count(b'\n'))


def base(trace, field):
    return os.path.join(GOLD, trace, urllib.parse.quote(field, safe=''))


def as_files(rc, out, err):
    """{ext: bytes} as stored for one run"""
    files = {'.txt': out} if len(out) <= MAXTXT else {'.sha': summary(out)}
    if rc != 0 or err:
        files['.err'] = b'rc=%d\n' % rc + err
    return files


def stored(trace, field):
    files = {}
    for ext in ('.txt', '.sha', '.err', '.nondet'):
        if os.path.exists(base(trace, field) + ext):
            files[ext] = open(base(trace, field) + ext, 'rb').read()
    return files


def gen_one(ref, trace, field):
    first = run(ref, trace, field)
    files = as_files(*first)
    if run(ref, trace, field) != first or (trace, field) in NONDET_ALSO:
        files['.nondet'] = ('not reproducible in the reference: %s\n' % NONDET_REASON.get(
            field, 'two runs printed different outputs')).encode()
    for ext in ('.txt', '.sha', '.err', '.nondet'):
        path = base(trace, field) + ext
        if ext in files:
            open(path, 'wb').write(files[ext])
        elif os.path.exists(path):
            os.unlink(path)


def gen(ref, only):
    os.makedirs(GOLD, exist_ok=True)
    if not only and not option('--trace'):
        open(os.path.join(GOLD, 'fields.txt'), 'w', encoding='utf-8').write(
            '\n'.join(fields_from_reference(ref)) + '\n')
    fields = [f for f in load_fields() if not only or f in only]
    traces = option('--trace').split(',') if option('--trace') else TRACES
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        jobs = []
        for trace in traces:
            os.makedirs(os.path.join(GOLD, trace), exist_ok=True)
            jobs += [pool.submit(gen_one, ref, trace, f) for f in fields]
        for j in jobs:
            j.result()


def first_difference(got, want):
    """the first differing lines, as 'line N: ours | reference'"""
    g, w = got.split(b'\n'), want.split(b'\n')
    for i in range(max(len(g), len(w))):
        a = g[i] if i < len(g) else b'<missing>'
        b = w[i] if i < len(w) else b'<missing>'
        if a != b:
            return 'line %d: ours %r | ref %r' % (i + 1, a[:120], b[:120])
    return 'same lines'


def explain(trace, field, want, got, out):
    for ext in ('.err', '.txt', '.sha'):
        if want.get(ext) != got.get(ext):
            break
    if ext == '.err':
        return 'stderr/rc: ours %r | ref %r' % (got.get('.err', b'')[:160], want.get('.err', b'')[:160])
    if ext == '.txt':
        return first_difference(out, want.get('.txt', b''))
    if os.access('/usr/bin/sysdig', os.X_OK):
        return first_difference(out, run('/usr/bin/sysdig', trace, field)[1])
    return 'sha256 differs (%s vs %s)' % (got.get('.sha', b'text').strip(), want['.sha'].strip())


def check(sysdig, only, traces):
    known = Known('filter_fields')
    fails = total = nondet = 0
    fields = [f for f in load_fields() if not only or f in only]
    work = [(t, f) for t in traces for f in fields]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = pool.map(lambda tf: run(sysdig, *tf), work)
        for (trace, field), res in zip(work, results):
            case = '%s %s' % (trace, field)
            want = stored(trace, field)
            total += 1
            if not want:
                fails += 1
                print('FAIL %s: no golden (run fields.py gen with the reference)' % case)
                continue
            if '.nondet' in want:
                nondet += 1
                print('NONDET %s: %s' % (case, want['.nondet'].decode().strip()))
                continue
            got = as_files(*res)
            if want == got:
                known.passed(case)
            elif known.failed(case, explain(trace, field, want, got, res[1])):
                fails += 1
    print('%d/%d (trace, field) pairs passed, %d nondeterministic, %s' % (
        total - fails - known.known - nondet, total, nondet, known.summary()))
    return 1 if fails else 0


def main():
    def missing():
        if not os.path.exists(os.path.join(GOLD, 'fields.txt')):
            return 'no goldens (run fields.py gen with the reference)'
        return None
    traces = option('--trace').split(',') if option('--trace') else TRACES
    return golden_cli.main(__doc__, gen, lambda sysdig, only: check(sysdig, only, traces), missing)


if __name__ == '__main__':
    sys.exit(main())
