"""The verifier: correspondence, obligations, proofs, reports, generators and the harness."""
