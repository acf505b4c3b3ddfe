"""Run the lit suite with the venv's `lit` and print a plain summary line
(`N passed, N failed`), since lit's own summary is not one."""

import re
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parent
lit = Path(sys.executable).with_name("lit")
proc = subprocess.run([str(lit), "-v", str(root / "lit")], capture_output=True, text=True)
sys.stdout.write(proc.stdout)
sys.stderr.write(proc.stderr)
passed = len(re.findall(r"^PASS: ", proc.stdout, re.M))
failed = len(re.findall(r"^(?:FAIL|XPASS|UNRESOLVED): ", proc.stdout, re.M))
print(f"lit: {passed} passed, {failed} failed")
sys.exit(proc.returncode if proc.returncode else (1 if failed or not passed else 0))
