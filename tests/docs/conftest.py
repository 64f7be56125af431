"""tests/ is not a package: this folder goes on ``sys.path`` so that the tests here import
the helper beside them (``rules_examples``) by name."""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
