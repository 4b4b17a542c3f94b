"""Entry point for `python -m core`."""

import sys

from core.cli import main

if __name__ == "__main__":  # not when a spawned reading process imports it
    sys.exit(main())
