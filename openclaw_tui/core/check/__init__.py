"""The consistency check: findings, references, secrets, instructions, reports."""
