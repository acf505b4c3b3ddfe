"""The proof: the check pipeline, the obligations, and how each is decided
(one path, every path at once, region by region, by induction on loops,
by reachability), with the progress rule, the budget and the replay."""
