"""The dialects of the subset, one package each: per dialect, what its ops
are and do beside how they are written.

A dialect's package holds:

- `ops`: its ops' facts, one `OpInfo` entry per op (`spec.op_info` says
  what each fact is), and the names of every op mlir-opt-19 registers in
  the dialect when it is known in full (`REGISTERED_OPS`);
- `syntax`: its custom forms, the builder rules the parser mixes into its
  transformer (a `BuilderBase` mixin named after the dialect) and the
  printers it registers with `spec.syntax.custom_registry.custom_printer`;
- `verifiers`, where the dialect has its own op checks beyond those every
  op gets (`gpu`, `memref`, `vector`, `scf`, `async_`): the rules
  `spec.syntax.op_verifiers` runs by the op's `verifier` name.

`spec.registry` gathers the `ops` tables and answers by op name;
`spec.syntax.dialects` gathers the `syntax` modules for the parser. The
packages import nothing at package level, so that a table can be read
without the syntax it sits beside.
"""
