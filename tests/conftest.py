import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

# Fits run in worker processes killed at their wall-time budget (ui/budget.py); on a loaded
# machine a page test's fit can take longer than in class. The budget's own tests set their
# limits explicitly (tests/test_budget.py, tests/browser/test_budget_server.py).
os.environ.setdefault("SVMLAB_BUDGET_SLACK", "10")
