"""Running implementations at scale: the gate's core, external commands, the
reference pass's one seam, the exhaustive runner and its Dask cluster,
`--split-input-file`, the judge's pairs and the syntax fuzzer."""
