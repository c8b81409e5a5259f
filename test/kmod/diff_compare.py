#!/usr/bin/env python3
"""diff_compare.py - compare two captures of the same execution event by event.

Part of the differential VM rig (run_diff_vm.sh).  Both files are read by the
reference /usr/bin/sysdig (0.29.3), so both are rendered by the same code:
per event thread id, process id and parent, direction, type and the
parameters (%evt.args).  Events are assigned to a workload step by process
ancestry (steps.txt: "<step> <pid>" lines written by the guest), grouped per
thread, and the two event sequences of each thread are aligned
(align(): whole events, then direction+type).  Aligned pairs are compared parameter by parameter;
events of one side without a partner are "missing"/"extra".  Every
difference falls into a class (kind, event, parameter); diff_known.tsv gives
the classes that are explained, with their reason.  Pids, tids and addresses
need no normalising (one execution), timestamps only\npair the events (align()), they are not compared.

Exit 0 when every difference is explained, 1 otherwise.
usage: diff_compare.py --ref A.scap --ours B.scap --steps steps.txt
                       --known diff_known.tsv [--bpf C.scap] [--report FILE]
"""
import argparse
import collections
import re
import subprocess
import sys

SEP = "\x1e"
FORMAT = SEP.join(["%evt.rawtime", "%thread.tid", "%proc.pid", "%proc.ppid", "%evt.dir",
                   "%evt.type", "%evt.args"])
PARAM_START = re.compile(r"(?:^| )([A-Za-z_][A-Za-z0-9_]*)=")
REFERENCE = "/usr/bin/sysdig"


def read_capture(path):
    """Events of a file as (tid, pid, ppid, key, args, time) rendered by the reference."""
    out = subprocess.run([REFERENCE, "-r", path, "-p", FORMAT,
                          "not proc.name in (sysdig, sysdig-c)"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if out.returncode != 0:
        sys.exit("diff_compare: %s -r %s failed: %s" %
                 (REFERENCE, path, out.stderr.decode(errors="replace").strip()))
    events = []
    for line in out.stdout.decode(errors="replace").split("\n"):
        f = line.split(SEP)
        if len(f) != 7:
            continue
        events.append((f[1], f[2], f[3], f[4] + " " + f[5], f[6].rstrip(" "), int(f[0])))
    return events


def params(args):
    """'a=1 b=x y' -> {'a': '1', 'b': 'x y'} (a repeated name gets #2, #3...)"""
    starts = list(PARAM_START.finditer(args))
    res = collections.OrderedDict()
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(args)
        name = m.group(1)
        n = 2
        while name in res:
            name = "%s#%d" % (m.group(1), n)
            n += 1
        res[name] = args[m.end():end]
    if not starts and args:
        res["(args)"] = args
    return res


def by_step(events, step_pids):
    """{step: {tid: [(key, args, time), ...]}} following each process's first known parent"""
    parent = {}
    for tid, pid, ppid, _, _, _ in events:
        parent.setdefault(pid, ppid)
    step_of_pid = {pid: name for name, pid in step_pids.items()}
    cache = {}

    def step(pid):
        seen = []
        p = pid
        while p not in cache and p not in step_of_pid and p in parent and p not in seen:
            seen.append(p)
            p = parent[p]
        s = cache.get(p, step_of_pid.get(p))
        for q in seen:
            cache[q] = s
        return s

    res = collections.defaultdict(lambda: collections.defaultdict(list))
    for tid, pid, _, key, args, ts in events:
        s = step(pid)
        if s is not None:
            res[s][tid].append((key, args, ts))
    return res


TOLERANCE = 50000000  # ns: the two records of one tracepoint hit are closer (TCG, BPF clock)
LOOKAHEAD = 16


def align(a, b, offset):
    """Pair two event sequences of one thread.  Both drivers record the same
    tracepoint hits, in the same order, so events pair in order: equal
    direction+type pair up (unless further apart in time than TOLERANCE and
    with other parameters: the guest's vCPU can stall between the two
    probes of one hit on a loaded host).
    At a difference, the partner of each side's event is looked for within
    LOOKAHEAD events of the other side; the nearer one wins (the time,
    b shifted by offset, decides a tie) and the events skipped have none;
    with no partner on either side, equal direction+type still pair.
    Yields ("pair", x, y), ("missing", x, None) and ("extra", None, y)."""
    i = j = 0

    def partner(ev, t, other, k, shift):
        for m in range(k, min(k + LOOKAHEAD, len(other))):
            if other[m][0] == ev[0] and abs(other[m][2] - shift - t) <= TOLERANCE:
                return m
        return None

    while i < len(a) and j < len(b):
        x, y = a[i], b[j]
        tx, ty = x[2], y[2] - offset
        if x[0] == y[0] and (abs(tx - ty) <= TOLERANCE or x[1] == y[1]):
            yield "pair", x, y
            offset = y[2] - x[2]
            i += 1
            j += 1
            continue
        kb = partner(x, tx, b, j + 1, offset)
        ka = partner(y, ty, a, i + 1, 0)
        if kb is not None and (ka is None or kb - j < ka - i or (kb - j == ka - i and tx <= ty)):
            for y in b[j:kb]:
                yield "extra", None, y
            yield "pair", x, b[kb]
            offset = b[kb][2] - x[2]
            i += 1
            j = kb + 1
        elif ka is not None:
            for x in a[i:ka]:
                yield "missing", x, None
            yield "pair", a[ka], y
            offset = y[2] - a[ka][2]
            i = ka + 1
            j += 1
        elif x[0] == y[0]:
            # same event, no partner for either within TOLERANCE: a stall
            # between the two probes, still in order
            yield "pair", x, y
            i += 1
            j += 1
        elif tx <= ty:
            yield "missing", x, None
            i += 1
        else:
            yield "extra", None, y
            j += 1
    for x in a[i:]:
        yield "missing", x, None
    for y in b[j:]:
        yield "extra", None, y


def clock_offset(fa, fb):
    """The second file's clock minus the first's (the BPF driver's clock is
    the boot clock moved to the epoch at start, a few microseconds off the
    module's): the median time difference of the events that occur exactly
    once in their thread on both sides."""
    d = []
    for step, threads in fa.items():
        for tid, evs in threads.items():
            other = fb.get(step, {}).get(tid, [])
            once_a = collections.Counter((e[0], e[1]) for e in evs)
            once_b = collections.Counter((e[0], e[1]) for e in other)
            tb = {(e[0], e[1]): e[2] for e in other}
            d += [tb[(e[0], e[1])] - e[2] for e in evs
                  if once_a[(e[0], e[1])] == 1 and once_b.get((e[0], e[1])) == 1]
    d.sort()
    return d[len(d) // 2] if d else 0


class Known:
    """diff_known.tsv: pair, kind, event regex, param regex, first/second value regex, reason"""

    def __init__(self, path):
        self.rules = []
        with open(path) as f:
            for n, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                c = line.split("\t")
                if len(c) != 7:
                    sys.exit("diff_compare: %s:%d: 7 tab-separated columns expected" % (path, n))
                self.rules.append((c[0], c[1], re.compile(c[2] + "$"), re.compile(c[3] + "$"),
                                   re.compile(c[4] + "$", re.S), re.compile(c[5] + "$", re.S), c[6]))

    def reason(self, pair, kind, event, param, first, second):
        for p, k, ev, pa, v1, v2, why in self.rules:
            if (p == pair and k == kind and ev.match(event) and pa.match(param) and
                    v1.match(first) and v2.match(second)):
                return why
        return None


class Comparison:
    def __init__(self, pair, names, known):
        self.pair = pair
        self.names = names
        self.known = known
        self.rows = []
        self.classes = collections.OrderedDict()

    def note(self, step, tid, kind, event, param, first, second):
        why = self.known.reason(self.pair, kind, event, param, first, second)
        cls = (kind, event, param, why)
        c = self.classes.setdefault(cls, {"count": 0, "examples": []})
        c["count"] += 1
        if len(c["examples"]) < 3:
            c["examples"].append((step, tid, first, second))
        return why is not None

    def thread(self, step, tid, a, b, t, offset):
        for op, x, y in align(a, b, offset):
            if op == "pair":
                t["matched"] += 1
                if x[1] == y[1]:
                    t["equal"] += 1
                    continue
                pa, pb = params(x[1]), params(y[1])
                ok = True
                for name in list(pa) + [n for n in pb if n not in pa]:
                    va, vb = pa.get(name), pb.get(name)
                    if va != vb:
                        ok &= self.note(step, tid, "param", x[0], name,
                                        "<absent>" if va is None else va,
                                        "<absent>" if vb is None else vb)
                t["explained" if ok else "unexplained"] += 1
            elif op == "missing":
                t["missing"] += 1
                t["unexplained"] += 0 if self.note(step, tid, "missing", x[0], "-", x[1], "") else 1
            else:
                t["extra"] += 1
                t["unexplained"] += 0 if self.note(step, tid, "extra", y[0], "-", "", y[1]) else 1

    def run(self, first, second, steps):
        fa, fb = by_step(first, steps), by_step(second, steps)
        offset = clock_offset(fa, fb)
        for step in steps:
            t = collections.Counter()
            tids = sorted(set(fa.get(step, {})) | set(fb.get(step, {})), key=int)
            for tid in tids:
                a, b = fa[step].get(tid, []), fb[step].get(tid, [])
                t["first"] += len(a)
                t["second"] += len(b)
                self.thread(step, tid, a, b, t, offset)
            self.rows.append((step, len(tids), t))

    def unexplained(self):
        return sum(c["count"] for (_, _, _, why), c in self.classes.items() if why is None)

    def report(self):
        n1, n2 = self.names
        out = ["## %s vs %s" % (n1, n2), "",
               "| step | threads | %s events | %s events | compared | equal | explained | "
               "unexplained | only %s | only %s |" % (n1, n2, n1, n2),
               "|---|---|---|---|---|---|---|---|---|---|"]
        tot = collections.Counter()
        for step, nt, t in self.rows:
            out.append("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d |" % (
                step, nt, t["first"], t["second"], t["matched"], t["equal"],
                t["explained"], t["unexplained"], t["missing"], t["extra"]))
            tot.update(t)
            tot["threads"] += nt
        out.append("| all | %d | %d | %d | %d | %d | %d | %d | %d | %d |" % (
            tot["threads"], tot["first"], tot["second"], tot["matched"], tot["equal"],
            tot["explained"], tot["unexplained"], tot["missing"], tot["extra"]))
        out += ["", "Difference classes (kind, event, parameter: count, reason):", ""]
        for (kind, event, param, why), c in sorted(self.classes.items(),
                                                   key=lambda kv: (kv[0][3] is not None, -kv[1]["count"])):
            out.append("- %s `%s` %s: %d, %s" % (kind, event, "" if param == "-" else "`%s`" % param,
                                                 c["count"], why or "**UNEXPLAINED**"))
            if why is None:
                for step, tid, v1, v2 in c["examples"]:
                    out.append("    - %s tid %s: %s `%s` / %s `%s`" % (step, tid, n1, v1[:300], n2, v2[:300]))
        return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", required=True)
    ap.add_argument("--ours", required=True)
    ap.add_argument("--bpf")
    ap.add_argument("--steps", required=True)
    ap.add_argument("--known", required=True)
    ap.add_argument("--report")
    o = ap.parse_args()
    steps = collections.OrderedDict()
    with open(o.steps) as f:
        for line in f:
            w = line.split()
            if len(w) >= 2:
                steps[w[0]] = w[1]
    known = Known(o.known)
    ours = read_capture(o.ours)
    runs = [Comparison("ref", ("reference kmod", "our kmod"), known)]
    runs[0].run(read_capture(o.ref), ours, steps)
    if o.bpf:
        runs.append(Comparison("bpf", ("our kmod", "our bpf"), known))
        runs[-1].run(ours, read_capture(o.bpf), steps)
    text = "\n".join(r.report() for r in runs)
    sys.stdout.write(text)
    if o.report:
        with open(o.report, "w") as f:
            f.write(text)
    bad = sum(r.unexplained() for r in runs)
    print("%s: %d unexplained difference(s)" % ("FAIL" if bad else "PASS", bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
