#!/usr/bin/env python3
"""chiselcmp.py - compare a chisel's output with the reference's, using the
rules of test/golden/README.md ("Comparing robustly"):

* table chisels (top*, fd*_by): header lines exact, rows as a multiset, our
  values non-increasing; when the table is full (top N rows) the rows with
  the smallest printed value only need to agree in value and count;
* fdcount_by ("key<TAB>count"): rows as a multiset, counts non-increasing;
* lsof / netstat / ps: header exact, rows as a multiset;
* JSON documents (-j): parsed, `data` as a multiset, rest structural;
* flame (a JSON tree written from Lua `pairs`, whose order LuaJIT randomises
  from run to run even on the reference): lines as a multiset;
* wsysdig_summary (one JSON document, key order random on the reference
  too): structurally (progress figures included), the per-protocol
  metrics as a multiset;
* everything else: byte for byte.

Usable as a module (compare(kind, ours, ref, top) -> (ok, message)) or as
`chiselcmp.py KIND OURS REF [TOP]`.
"""
import json
import re
import sys

TOP = {'topprocs_cpu': 10, 'topprocs_file': 10, 'topfiles_bytes': 10, 'topfiles_time': 10,
       'topfiles_errors': 10, 'topscalls': 30, 'topscalls_time': 30, 'topconns': 30,
       'topprocs_net': 100, 'topports_server': 100, 'topprocs_errors': 100,
       'fdbytes_by': 30, 'fdtime_by': 10, 'topcontainers_file': 10,
       'topcontainers_net': 100, 'topcontainers_error': 100, 'httptop': 30}

UNITS = {'B': 1, 'KB': 1024, 'M': 1024**2, 'G': 1024**3, 'T': 1024**4, 'P': 1024**5,
         'ns': 1, 'us': 1e3, 'ms': 1e6, 's': 1e9, '%': 1}


def value_of(text):
    """numeric value of a rendered table cell: 12, 1.50KB, 3.20ms, 45.00%"""
    m = re.match(r'^(-?[0-9.e+]+)([A-Za-z%]*)$', text.strip())
    if not m:
        return None
    try:
        return float(m.group(1)) * UNITS.get(m.group(2), 1)
    except ValueError:
        return None


def kind_of(chisel):
    if chisel in ('lsof', 'netstat', 'ps'):
        return 'rows'
    if chisel == 'fdcount_by':
        return 'count'
    if chisel == 'flame':
        return 'lines'
    if chisel == 'wsysdig_summary':
        return 'wsysdig'
    if chisel == 'table_generator' or chisel.startswith('top') or chisel in ('fdbytes_by', 'fdtime_by', 'httptop'):
        return 'table'
    return 'exact'


def check_order(vals):
    for a, b in zip(vals, vals[1:]):
        if a is None or b is None or b > a:
            return False
    return True


def cmp_rows_topn(ours, ref, vals_o, vals_r, top):
    """multiset compare; when full, the boundary-value rows by count only"""
    if not check_order(vals_o):
        return False, 'our rows are not sorted by value (descending)'
    if len(ours) != len(ref):
        return False, f'{len(ours)} rows, reference {len(ref)}'
    if top and len(ref) == top and ref:
        low = vals_r[-1]
        keep_o = [r for r, v in zip(ours, vals_o) if v != low]
        keep_r = [r for r, v in zip(ref, vals_r) if v != low]
        if sorted(keep_o) != sorted(keep_r):
            return False, 'rows differ (above the top-N boundary)'
        if vals_o.count(low) != vals_r.count(low):
            return False, 'boundary rows differ in count'
        return True, ''
    if sorted(ours) != sorted(ref):
        return False, 'rows differ: ' + str(sorted(set(ours) ^ set(ref))[:4])
    return True, ''


def cmp_table(ours, ref, top):
    o, r = ours.split('\n'), ref.split('\n')
    if len(r) < 2 or not r[1].startswith('---'):
        return cmp_exact(ours, ref)
    if o[:2] != r[:2]:
        return False, 'header differs'
    ro = [x for x in o[2:] if x]
    rr = [x for x in r[2:] if x]
    return cmp_rows_topn(ro, rr, [value_of(x[:20]) for x in ro], [value_of(x[:20]) for x in rr], top)


def cmp_count(ours, ref, top):
    ro = [x for x in ours.split('\n') if x]
    rr = [x for x in ref.split('\n') if x]

    def cnt(x):
        try:
            return float(x.rsplit('\t', 1)[1])
        except (IndexError, ValueError):
            return None
    return cmp_rows_topn(ro, rr, [cnt(x) for x in ro], [cnt(x) for x in rr], top)


def cmp_rows(ours, ref):
    o, r = ours.split('\n'), ref.split('\n')
    if o[:1] != r[:1]:
        return False, 'header differs'
    if sorted(o[1:]) != sorted(r[1:]):
        return False, 'rows differ: ' + str(sorted(set(o[1:]) ^ set(r[1:]))[:4])
    return True, ''


def cmp_json(ours, ref, top):
    try:
        jo, jr = json.loads(ours), json.loads(ref)
    except ValueError as e:
        return False, f'invalid JSON: {e}'
    do, dr = jo.pop('data', []), jr.pop('data', [])
    if jo != jr:
        return False, 'JSON documents differ outside data'
    so = [json.dumps(x) for x in do]
    sr = [json.dumps(x) for x in dr]
    return cmp_rows_topn(so, sr, [x[-1] for x in do], [x[-1] for x in dr], top)


def cmp_exact(ours, ref):
    if ours == ref:
        return True, ''
    o, r = ours.split('\n'), ref.split('\n')
    for i, (a, b) in enumerate(zip(o, r)):
        if a != b:
            return False, f'line {i + 1}: ours {a[:70]!r} ref {b[:70]!r}'
    return False, f'{len(o)} lines, reference {len(r)}'


def cmp_lines(ours, ref):
    # the last member of an object has no comma, and which one is last varies
    a = sorted(x.rstrip(',') for x in ours.splitlines())
    b = sorted(x.rstrip(',') for x in ref.splitlines())
    if a == b:
        return True, ''
    diff = sorted(set(a) ^ set(b))[:4]
    return False, f'lines differ: {diff}'


def cmp_wsysdig(ours, ref):
    try:
        so, sr = json.loads(ours)['slices'], json.loads(ref)['slices']
    except (ValueError, KeyError, TypeError) as e:
        return False, f'not a wsysdig_summary document: {e}'
    if len(so) != len(sr):
        return False, f'{len(so)} slices, reference {len(sr)}'
    if so[:-1] != sr[:-1]:
        i = next(i for i, (a, b) in enumerate(zip(so, sr)) if a != b)
        return False, f'slice {i}: ours {so[i]}, reference {sr[i]}'
    if not so:
        return True, ''
    do, dr = so[-1], sr[-1]

    def split_apps(doc):
        data = doc.get('data') or {}
        metrics = data.get('metrics', [])
        apps = sorted(json.dumps(m, sort_keys=True) for m in metrics if m.get('category') == 'napps')
        rest = dict(doc, data=dict(data, metrics=[m for m in metrics if m.get('category') != 'napps']))
        return rest, apps
    (ro, ao), (rr, ar) = split_apps(do), split_apps(dr)
    if ao != ar:
        return False, 'per-protocol (napps) metrics differ'
    if ro != rr:
        mo = [m.get('name') for m in ro['data'].get('metrics', [])]
        mr = [m.get('name') for m in rr['data'].get('metrics', [])]
        if mo != mr:
            return False, f'metrics {mo}, reference {mr}'
        for a, b in zip(ro['data']['metrics'], rr['data']['metrics']):
            if a != b:
                return False, f'metric {a.get("name")!r} differs'
        return False, 'the final slice differs outside the metrics'
    return True, ''


def compare(kind, ours, ref, top=0):
    if kind == 'table':
        return cmp_table(ours, ref, top)
    if kind == 'count':
        return cmp_count(ours, ref, top)
    if kind == 'rows':
        return cmp_rows(ours, ref)
    if kind == 'json':
        return cmp_json(ours, ref, top)
    if kind == 'lines':
        return cmp_lines(ours, ref)
    if kind == 'wsysdig':
        return cmp_wsysdig(ours, ref)
    return cmp_exact(ours, ref)


def compare_auto(chisel, ours, ref, json_mode=False):
    kind = 'json' if json_mode and kind_of(chisel) == 'table' else kind_of(chisel)
    return compare(kind, ours, ref, TOP.get(chisel, 0))


if __name__ == '__main__':
    if len(sys.argv) < 4:
        sys.exit('usage: chiselcmp.py KIND OURS REF [TOP]')
    with open(sys.argv[2], errors='surrogateescape') as a, open(sys.argv[3], errors='surrogateescape') as b:
        ok, msg = compare(sys.argv[1], a.read(), b.read(), int(sys.argv[4]) if len(sys.argv) > 4 else 0)
    print('same' if ok else 'different: ' + msg)
    sys.exit(0 if ok else 1)
