"""Upstream's bugs as reported, each re-run against the installed tools."""
