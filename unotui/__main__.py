"""``python -m unotui`` is the same as the ``unotui`` command."""

import sys

from .cli import main

sys.exit(main())
