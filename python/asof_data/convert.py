"""Observations in the layouts forecasting libraries take: Nixtla's long frame and fev's one row per series."""

import pandas as pd

from .loader import latest_view


def _latest(df):
    """One row per (series_id, timestamp): the latest vintage when df holds several, withdrawals dropped."""
    missing = {"series_id", "timestamp", "value"} - set(df.columns)
    if missing:
        raise ValueError(f"expected asof observations (series_id, timestamp, value); missing {sorted(missing)}")
    if "available_at" in df.columns:
        return latest_view(df)
    if df.duplicated(["series_id", "timestamp"]).any():
        raise ValueError("several rows per (series_id, timestamp) and no available_at to choose the latest by")
    df = df.sort_values(["series_id", "timestamp"], kind="mergesort")
    return df[df["value"].notna()].reset_index(drop=True)


def to_nixtla(df):
    """A long frame for Nixtla (statsforecast, neuralforecast, mlforecast): unique_id, ds, y, sorted by
    unique_id then ds. Several vintages per (series_id, timestamp) are reduced to the latest; nulls dropped."""
    latest = _latest(df)
    out = pd.DataFrame(
        {
            "unique_id": latest["series_id"].astype(str),
            "ds": latest["timestamp"],
            "y": latest["value"].astype(float),
        }
    )
    return out.sort_values(["unique_id", "ds"], kind="mergesort").reset_index(drop=True)


def to_fev(df):
    """One row per series for fev (and Hugging Face datasets): id, timestamp (list), target (list), by id.
    A frame already in that layout (load(config='snapshot')) is returned as a copy."""
    if {"id", "timestamp", "target"} <= set(df.columns) and "series_id" not in df.columns:
        return df[["id", "timestamp", "target"]].sort_values("id", kind="mergesort").reset_index(drop=True)
    nixtla = to_nixtla(df)
    rows = [
        {"id": uid, "timestamp": list(g["ds"]), "target": [float(v) for v in g["y"]]}
        for uid, g in nixtla.groupby("unique_id", sort=True)
    ]
    return pd.DataFrame(rows, columns=["id", "timestamp", "target"])
