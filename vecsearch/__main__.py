"""``python -m vecsearch``: the command line."""

import sys

from vecsearch.cli import main

sys.exit(main())
