"""Known failures of the aggregate conformance tests (test/known_failures.txt).

Lines of the form  "<test> <case>\t<reason>"  name one case inside a test that
runs many cases (filter_goldens, chisel_goldens, chisel_compat_stock).  Such a
case still runs; a failure is reported as KNOWN instead of FAIL, and a pass as
FIXED so the line can be removed.  Lines whose first field has no space name a
whole ctest test and are handled by scripts/test.
"""
import os

FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'known_failures.txt')


class Known:
    def __init__(self, test):
        self.test = test
        self.cases = {}
        self.known = self.fixed = 0
        if os.path.exists(FILE):
            for line in open(FILE, encoding='utf-8'):
                if line.startswith('#') or not line.strip():
                    continue
                key, _, reason = line.rstrip('\n').partition('\t')
                name, _, case = key.partition(' ')
                if name == test and case:
                    self.cases[case] = reason

    def failed(self, case, msg):
        """Report a failing case; returns True when it counts as a failure."""
        if case in self.cases:
            self.known += 1
            print('KNOWN %s: %s (%s)' % (case, msg, self.cases[case]))
            return False
        print('FAIL %s: %s' % (case, msg))
        return True

    def passed(self, case):
        if case in self.cases:
            self.fixed += 1
            print('FIXED %s: remove it from test/known_failures.txt' % case)

    def summary(self):
        return '%d known failures, %d fixed' % (self.known, self.fixed)
