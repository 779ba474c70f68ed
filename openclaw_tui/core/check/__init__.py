"""The consistency check: findings, references, secrets, redaction, instructions, reports."""
