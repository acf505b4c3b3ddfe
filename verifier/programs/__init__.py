"""Programs and rewrites made to order: Hypothesis strategies, the bounded
enumeration, the judge's edits and the pass's mutants. Each says how it shrinks."""
