"""The executable semantics: the event model (happens-before) and the interpreter of synchronous and asynchronous execution."""
