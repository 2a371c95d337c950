"""``python -m pandas_biosig.cli report ...`` is ``biosig report ...``."""

from ._report import main

raise SystemExit(main())
