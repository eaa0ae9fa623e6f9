"""`python -m routemax`: the routemax command line (see server/cli.py)."""

import sys

from server.cli import main

sys.exit(main())
