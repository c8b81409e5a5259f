#!/usr/bin/env python3
"""scsummary_expect.py - what `sysdig -c scsummary [GROUP [hist]]` must print
for a trace, computed independently of the chisel from the reference's event
listing:

    sysdig -r TRACE -p "%evt.type|%evt.rawres|%evt.res|%evt.latency|%proc.pid|%thread.tid|%proc.name" \
        "evt.dir=< and evt.type!=tracer" | scsummary_expect.py [GROUP [hist]]

The rules are the chisel's documented ones (chisels/scsummary.lua): a call
per syscall exit, except the new task's side of clone/fork/vfork/clone3
(return 0); an error is a return value in -4095..-1, named by evt.res;
times are evt.latency; p50/p99 are nearest-rank percentiles; lines sorted
by total time, then calls, then name; groups by total time.
"""
import math
import sys

CLONES = {'clone', 'fork', 'vfork', 'clone3'}


def us(ns):
    return '%.3f' % (ns / 1000)


class Line:
    def __init__(self):
        self.samples = []
        self.errnos = {}
        self.errors = 0

    def add(self, ns, errno):
        self.samples.append(ns)
        if errno is not None:
            self.errors += 1
            self.errnos[errno] = self.errnos.get(errno, 0) + 1

    def pct(self, q):
        s = sorted(self.samples)
        return s[max(1, math.ceil(q / 100 * len(s))) - 1]


HEADER = '%-20s %9s %8s %14s %11s %11s %11s %11s %11s %7s' % (
    'syscall', 'calls', 'errors', 'total(us)', 'min(us)', 'avg(us)', 'max(us)', 'p50(us)', 'p99(us)', '%time')
RULE = '-' * len(HEADER)


def histogram(name, line, out):
    buckets = {}
    for ns in line.samples:
        b = ns.bit_length() - 1 if ns > 0 else -1
        buckets[b] = buckets.get(b, 0) + 1
    most = max(buckets.values())
    out.append('%s latency (ns), %d calls:' % (name, len(line.samples)))
    for b in range(min(buckets), max(buckets) + 1):
        n = buckets.get(b, 0)
        lo, hi = (0, 1) if b < 0 else (2 ** b, 2 ** (b + 1))
        label = '[%d, %d)' % (lo, hi)
        out.append('  %s%s %10d |%-40s|' % (label, ' ' * max(0, 26 - len(label)), n,
                                            '@' * math.floor(n * 40 / most + 0.5)))


def group_text(label, calls, hist, out):
    total = {n: sum(l.samples) for n, l in calls.items()}
    names = sorted(calls, key=lambda n: (-total[n], -len(calls[n].samples), n))
    all_total = sum(total.values())
    if label is not None:
        out.append(label)
    out.append(HEADER)
    out.append(RULE)
    for n in names:
        l = calls[n]
        c = len(l.samples)
        out.append('%-20s %9d %8d %14s %11s %11s %11s %11s %11s %7s' % (
            n, c, l.errors, us(total[n]), us(min(l.samples)), us(math.floor(total[n] / c + 0.5)),
            us(max(l.samples)), us(l.pct(50)), us(l.pct(99)),
            '%.2f' % (total[n] * 100 / all_total if all_total > 0 else 0)))
    out.append(RULE)
    out.append('%-20s %9d %8d %14s %11s %11s %11s %11s %11s %7s' % (
        'total', sum(len(l.samples) for l in calls.values()), sum(l.errors for l in calls.values()),
        us(all_total), '', '', '', '', '', '100.00'))
    errs = []
    for n in names:
        l = calls[n]
        for e in sorted(l.errnos, key=lambda e: (-l.errnos[e], e)):
            errs.append('  %-20s %-14s %9d' % (n, e, l.errnos[e]))
    if errs:
        out += ['', 'errors by errno:'] + errs
    if hist:
        for n in names:
            out.append('')
            histogram(n, calls[n], out)
    return all_total


def main():
    group = sys.argv[1] if len(sys.argv) > 1 else 'none'
    hist = len(sys.argv) > 2 and sys.argv[2] == 'hist'
    groups = {}
    for raw in sys.stdin.buffer.read().decode(errors='surrogateescape').splitlines():
        etype, rawres, res, lat, pid, tid, pname = raw.split('|', 6)
        rawres = int(rawres) if rawres not in ('', '<NA>') else None
        if etype in CLONES and rawres == 0:
            continue
        errno = None
        if rawres is not None and -4095 <= rawres < 0:
            errno = res
        if group == 'proc':
            key, label = 'pid ' + pid, '%s (pid %s)' % (pname, pid)
        elif group == 'thread':
            key, label = 'tid ' + tid, '%s (tid %s, pid %s)' % (pname, tid, pid)
        else:
            key, label = '', None
        g = groups.setdefault(key, {'label': label, 'calls': {}})
        if label is not None:
            g['label'] = label
        g['calls'].setdefault(etype, Line()).add(int(lat) if lat else 0, errno)
    if not groups:
        print('no system calls seen')
        return
    totals = {k: sum(sum(l.samples) for l in g['calls'].values()) for k, g in groups.items()}
    out = []
    for i, k in enumerate(sorted(groups, key=lambda k: (-totals[k], k))):
        if i:
            out.append('')
        group_text(groups[k]['label'], groups[k]['calls'], hist, out)
    print('\n'.join(out))


if __name__ == '__main__':
    main()
