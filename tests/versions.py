"""What the tests need from pandas, whatever its supported version (2.1 to 3.x)."""

import numpy as np
import pandas as pd


def nan_string_dtype() -> pd.StringDtype:
    """The pyarrow-backed string dtype whose missing value is NaN (pandas 3's ``str``):
    ``StringDtype("pyarrow", np.nan)`` from pandas 2.3, ``"pyarrow_numpy"`` storage in
    pandas 2.1 and 2.2."""
    try:
        return pd.StringDtype("pyarrow", np.nan)
    except TypeError:
        return pd.StringDtype("pyarrow_numpy")
