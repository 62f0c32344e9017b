# SPDX-License-Identifier: GPL-3.0-or-later
"""scripts/hostile_review.sh runs this: every class of cases in turn, then the table of failures."""
import sys
import time

from common import CLASSES, ONLY, failures, results
from input_cases import latin1_class, numeric_class, special_files_class, user_profile_class
from output_cases import large_class, links_class, messages_class, out_class, values_class

STEPS = [(1, user_profile_class), (4, special_files_class), (5, numeric_class), (6, latin1_class),
         (7, values_class), (8, messages_class), (9, out_class), (3, links_class), (2, large_class)]
for cls, step in STEPS:
    if ONLY and str(cls) != ONLY and not (ONLY in ("10", "11") and cls in (6, 9)):
        continue
    t0 = time.time()
    step()
    print("-- class %d done in %.0f s" % (cls, time.time() - t0), flush=True)

print()
print("| class | cases | failures |")
print("|---|---|---|")
for c, name in CLASSES.items():
    print("| %d. %s | %d | %d |" % (c, name, results[c][0], results[c][1]))
print("hostile_review: %d cases, %d failures" % (sum(r[0] for r in results.values()), len(failures)))
sys.exit(1 if failures else 0)
