"""`python -m routemax`: the routemax command line (see server/main.py)."""

import sys

from server.main import main

sys.exit(main())
