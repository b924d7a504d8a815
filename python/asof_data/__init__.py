"""asof_data: load folders `asof publish` wrote into pandas, every file checked against its sha256 first.

    import asof_data
    df = asof_data.load("published/", as_of="2020-06-01")   # observations as known then
    asof_data.to_nixtla(df)                                   # unique_id, ds, y
    asof_data.to_fev(df)                                      # id, timestamp[], target[]
"""

from ._verify import LoadError, VerificationError
from .convert import to_fev, to_nixtla
from .loader import latest_view, load, verify

__version__ = "0.1.0"
__all__ = ["load", "verify", "latest_view", "to_nixtla", "to_fev", "LoadError", "VerificationError", "__version__"]
