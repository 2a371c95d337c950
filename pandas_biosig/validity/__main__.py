"""``python -m pandas_biosig.validity [--quick] [--out FILE]``: the validity report;
``python -m pandas_biosig.validity defaults [...]``: the run over every default call;
``python -m pandas_biosig.validity calibration [...]``: calibration and fusion;
``python -m pandas_biosig.validity uncertainty [...]``: bands, crossed effects, guarantees."""

import sys

from ._calibration import main as calibration_main
from ._defaults import main as defaults_main
from ._uncertainty import main as uncertainty_main
from ._verification import main

if len(sys.argv) > 1 and sys.argv[1] == "defaults":
    raise SystemExit(defaults_main(sys.argv[2:]))
if len(sys.argv) > 1 and sys.argv[1] == "calibration":
    raise SystemExit(calibration_main(sys.argv[2:]))
if len(sys.argv) > 1 and sys.argv[1] == "uncertainty":
    raise SystemExit(uncertainty_main(sys.argv[2:]))
raise SystemExit(main(sys.argv[1:]))
