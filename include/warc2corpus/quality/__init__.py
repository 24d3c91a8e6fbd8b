"""The quality gates: the eval gate, autoCat's evaluation, near-duplicates' labelled pairs."""
