"""golden_cli.py - the command line shared by the golden scripts.

    SCRIPT gen [--ref SYSDIG] [--only A,B,...]      generate goldens with the reference
    SCRIPT check SYSDIG [--only A,B,...] [...]      compare ours (exit 77: SKIPPED)
"""
import os
import sys


def option(name):
    """the value after `name` on the command line, or None"""
    if name in sys.argv:
        i = sys.argv.index(name)
        if i + 1 < len(sys.argv):
            return sys.argv[i + 1]
    return None


def only_option():
    value = option('--only')
    return set(value.split(',')) if value else None


def main(doc, gen, check, missing=None):
    """gen(ref, only); check(sysdig, only) -> exit code; missing() -> why the
    check cannot run (SKIPPED), or None"""
    if len(sys.argv) >= 2 and sys.argv[1] == 'gen':
        gen(option('--ref') or '/usr/bin/sysdig', only_option())
        return 0
    if len(sys.argv) >= 3 and sys.argv[1] == 'check':
        why = None if os.access(sys.argv[2], os.X_OK) else '%s not built' % sys.argv[2]
        why = why or (missing() if missing else None)
        if why:
            print('SKIPPED: ' + why)
            return 77
        return check(sys.argv[2], only_option())
    print(doc)
    return 2
