"""Correspondence: which op of the output is which op of the input, what the
rewrite must leave alone, and what makes a rewrite invalid IR."""
