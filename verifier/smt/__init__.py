"""Z3: the happens-before encodings (one path, guarded graphs of every path)
and the solver settings the verifier uses."""
