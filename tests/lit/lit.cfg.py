# lit configuration: RUN lines call `%python -m spec|refimpl|verifier` and
# `filecheck` from the project's venv.
import os
import sys

import lit.formats

config.name = "gpu-async-region"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
repo = os.path.dirname(os.path.dirname(config.test_source_root))
config.test_exec_root = os.path.join(repo, "build", "lit")
config.substitutions.append(("%python", sys.executable))
config.environment["PYTHONPATH"] = repo
config.environment["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
