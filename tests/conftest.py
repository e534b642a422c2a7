"""pytest configuration shared by every test: makes tests/ and host/ importable."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT / "tests", ROOT / "host", ROOT):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
