"""One module per CLI sub-command: ``register(subparsers)`` and ``run(args) -> int``."""
