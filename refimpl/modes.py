"""The pass's modes: what each one decides, one field per difference.

The three modes run the same phases (`refimpl.thread`, `refimpl.defer`,
`refimpl.single_use`), except `seed`, which runs the 2020 pass
(`refimpl.seed`). Where `reference` departs from upstream, the departure is
a numbered deviation in `docs/refimpl.md`; each is one field here, named
for what it decides, so a phase asks the field and never the mode's name.
The mode's name is read only at the boundary (`mode_named`: the CLI's
`--mode` and `refimpl.rewrite`'s `mode` argument).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mode:
    """One behaviour of the pass: which rules apply where the modes differ."""

    name: str
    """As given to `--mode` and `refimpl.rewrite`."""
    seed_walk: bool
    """Run the 2020 pass (`refimpl.seed`: one walk with one shared token)
    instead of upstream's three phases; only `stop_at_first_failure` of
    the fields below then applies."""
    stop_at_first_failure: bool
    """Report only the first function the pass fails on, as mlir-opt-19 does
    (deviation 3: the reference, like mlir-opt-22, reports every one)."""
    close_open_chains: bool
    """A block without a terminator that ends with a chain open gets a
    blocking `gpu.wait` at its end (deviation 4); otherwise its token is
    carried into the next block walked, as upstream's one current token
    is, and the output may be invalid."""
    grow_token_segment: bool
    """An op with `resultSegmentSizes` made async gets its token's segment
    grown (deviation 6); otherwise the sizes stay as upstream leaves them,
    which mlir-opt's verifier rejects."""
    defer_only_if_awaited_on_every_path: bool
    """An execute's wait is deferred only when a user of its token sits in
    the execute's own block, so that it runs on every path past the execute
    (deviation 5); otherwise a path that skips every user leaves the GPU
    work unwaited."""
    value_result_users_wait: bool
    """After a wait is deferred, the users of the execute's value results
    wait for the deferred tokens too, unless the host already has
    (deviation 1); otherwise only the users of its token do."""
    one_result_per_use: bool
    """A deferred token result with k uses gets k-1 new results and every
    further user its own (deviation 2); otherwise only one user moves, as
    upstream's rewiring while iterating the use list leaves it."""


REFERENCE = Mode(
    name="reference",
    seed_walk=False,
    stop_at_first_failure=False,
    close_open_chains=True,
    grow_token_segment=True,
    defer_only_if_awaited_on_every_path=True,
    value_result_users_wait=True,
    one_result_per_use=True,
)
"""Upstream's rules with every deviation of `docs/refimpl.md`."""

MLIR19 = Mode(
    name="mlir19",
    seed_walk=False,
    stop_at_first_failure=True,
    close_open_chains=False,
    grow_token_segment=False,
    defer_only_if_awaited_on_every_path=False,
    value_result_users_wait=False,
    one_result_per_use=False,
)
"""Bug-compatible with `mlir-opt-19` (with `--mlir-disable-threading`)."""

SEED = Mode(
    name="seed",
    seed_walk=True,
    stop_at_first_failure=True,
    close_open_chains=False,
    grow_token_segment=False,
    defer_only_if_awaited_on_every_path=False,
    value_result_users_wait=False,
    one_result_per_use=False,
)
"""The pass as first proposed for review in 2020; its pass manager stops at
the first failing function."""

BY_NAME: dict[str, Mode] = {m.name: m for m in (REFERENCE, MLIR19, SEED)}
NAMES: tuple[str, ...] = tuple(BY_NAME)
"""The names `--mode` accepts, the default first."""


def mode_named(mode: str | Mode) -> Mode:
    """The mode called `mode` (a `Mode` is returned as it is). Raises
    `ValueError` naming the modes there are."""
    if isinstance(mode, Mode):
        return mode
    found = BY_NAME.get(mode)
    if found is None:
        raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(NAMES)}")
    return found
