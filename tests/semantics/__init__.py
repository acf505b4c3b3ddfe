"""The executable semantics: the interpreter, schedules, and the semantic judge."""
