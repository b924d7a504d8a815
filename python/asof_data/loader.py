"""load(): one config and split of a folder `asof publish` wrote, verified, as a pandas DataFrame."""

import csv
import io
import json
import os
import re

import numpy as np
import pandas as pd

from ._verify import LoadError, VerificationError, read_file_list, verified_bytes

# Columns read as text whatever they look like ('001', 'NA' and '2019' are ids and labels, not numbers).
_TEXT_COLUMNS = {"series_id", "id", "unique_id", "item_id", "period", "source_ref", "task_id"}
# Instants converted to UTC even when every cell is empty.
_TIME_COLUMNS = {"timestamp", "available_at", "period_start"}
_ISO_INSTANT = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$")


def _pyarrow_available():
    """Whether pandas can read Parquet here (pyarrow imports)."""
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except Exception:
        return False
    return True


def _root_of(path):
    path = os.fspath(path)
    if os.path.isfile(path):  # manifest.json or croissant.json given instead of its folder
        return os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(path):
        raise LoadError(f"{path}: no such folder; pass the folder 'asof publish --out DIR' wrote")
    return path


def _in_split(name, split):
    stem, ext = os.path.splitext(name)
    return ext in (".parquet", ".csv") and (stem == split or stem.startswith(split + "-"))


def _stems(root, config, split, files):
    """The shards of config/split as {relative stem: {'.parquet'|'.csv': relative path}} (files on disk),
    plus the stems the file list names that have no file on disk (an incomplete folder)."""
    data_dir = os.path.join(root, "data")
    folder = os.path.join(data_dir, config)
    if not os.path.isdir(folder):
        configs = []
        if os.path.isdir(data_dir):
            configs = sorted(d for d in os.listdir(data_dir) if os.path.isdir(os.path.join(data_dir, d)))
        raise LoadError(
            f"{root}: no config '{config}' (no folder data/{config}); configs here: {', '.join(configs) or 'none'}"
        )
    names = sorted(os.listdir(folder))
    shards = {}
    for name in names:
        if _in_split(name, split) and os.path.isfile(os.path.join(folder, name)):
            stem, ext = os.path.splitext(name)
            shards.setdefault(f"data/{config}/{stem}", {})[ext] = f"data/{config}/{name}"
    missing = []
    if files is not None:
        for rel in files.listed_under(f"data/{config}/"):
            name = rel[len(f"data/{config}/") :]
            if "/" not in name and _in_split(name, split) and os.path.splitext(rel)[0] not in shards:
                missing.append(rel)
    if not shards and not missing:
        splits = sorted({re.split(r"[-.]", n, maxsplit=1)[0] for n in names if n.endswith((".parquet", ".csv"))})
        raise LoadError(
            f"{root}: config '{config}' has no split '{split}' (no data/{config}/{split}-*.parquet or .csv); "
            f"splits here: {', '.join(splits) or 'none'}"
        )
    return shards, missing


def _to_utc(values):
    """Instants (ISO text or datetimes) as tz-aware UTC pandas Timestamps."""
    if pd.api.types.is_datetime64_any_dtype(values):
        s = pd.Series(values)
        return s.dt.tz_localize("UTC") if s.dt.tz is None else s.dt.tz_convert("UTC")
    try:
        return pd.to_datetime(values, utc=True, format="ISO8601")  # pandas >= 2
    except (TypeError, ValueError):
        return pd.to_datetime(values, utc=True)  # pandas 1.x infers ISO-8601 itself


def _first(series):
    non_null = series.dropna()
    return non_null.iloc[0] if len(non_null) else None


def _as_list(cell):
    """A list cell (a JSON array in CSV, an array from Parquet) as a Python list, instants as UTC Timestamps."""
    if cell is None or (isinstance(cell, float) and np.isnan(cell)):
        return cell
    if isinstance(cell, str):
        cell = json.loads(cell)
    items = list(cell)
    if items and all(isinstance(x, str) and _ISO_INSTANT.match(x) for x in items):
        return list(_to_utc(pd.Series(items)))
    if items and isinstance(items[0], (np.datetime64, pd.Timestamp)):
        return list(_to_utc(pd.Series(items)))
    items = [x.item() if isinstance(x, np.generic) else x for x in items]
    return [None if isinstance(x, float) and np.isnan(x) else x for x in items]


def _normalise(df):
    """Instants as tz-aware UTC, list cells as lists: the same frame from Parquet and from CSV."""
    for col in df.columns:
        s = df[col]
        if pd.api.types.is_datetime64_any_dtype(s):
            df[col] = _to_utc(s)
            continue
        text_like = s.dtype == object or isinstance(s.dtype, pd.StringDtype)  # pandas 3 reads text as str
        first = _first(s) if text_like else None
        if isinstance(first, str) and first.startswith("["):
            df[col] = s.map(_as_list)
        elif isinstance(first, (list, tuple, np.ndarray)):
            df[col] = s.map(_as_list)
        elif isinstance(first, str):
            # timestamp and available_at always (naive text is UTC; text that is no instant fails loudly),
            # any other column when every cell is an ISO-8601 instant with its offset.
            if col in _TIME_COLUMNS or (
                _ISO_INSTANT.match(first) and s.dropna().astype(str).str.match(_ISO_INSTANT).all()
            ):
                df[col] = _to_utc(s)
        elif col in _TIME_COLUMNS and first is None:
            df[col] = _to_utc(s)
    return df


_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$|^[+-]?(inf|Infinity|NaN)$")
_INTEGER = re.compile(r"^[+-]?\d+$")
_LEADING_ZERO = re.compile(r"^[+-]?0\d")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_BOOLEANS = {"true": True, "false": False, "True": True, "False": False, "TRUE": True, "FALSE": False}


def _typed(s, name):
    """A CSV column read as text, typed the way its Parquet twin is: numbers (but codes like '0001' stay
    text), booleans, dates (YYYY-MM-DD), else text. Instants and lists are left to _normalise."""
    if name in _TEXT_COLUMNS or name.endswith("_id"):
        return s
    text = s.dropna()
    if len(text) == 0:
        return s.astype(float)  # every cell empty: NaN, as pandas reads it
    first = text.iloc[0]  # a cheap refusal first: most text columns fail on their first cell
    if first in _BOOLEANS and text.isin(list(_BOOLEANS)).all():
        return s.map(lambda v: _BOOLEANS[v] if isinstance(v, str) else None)
    numbers = _NUMBER.match(first) and text.str.match(_NUMBER).all()
    if numbers and not (name != "value" and text.str.match(_LEADING_ZERO).any()):
        if len(text) == len(s) and text.str.match(_INTEGER).all():
            try:
                return s.astype("int64")
            except (OverflowError, ValueError):
                pass
        return pd.to_numeric(s)
    if _DATE.match(first) and text.str.match(_DATE).all():  # a DATE column (Parquet gives datetime.date)
        return pd.to_datetime(s, format="%Y-%m-%d").dt.date.where(s.notna(), None)
    return s


def _read_csv(data, rel):
    """A CSV shard: header row, empty field = null, every other field text until typed (_typed)."""
    text = data.decode("utf-8-sig")
    header = next(csv.reader(io.StringIO(text)), [])
    try:
        df = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False, na_values=[""], low_memory=False)
    except pd.errors.EmptyDataError:
        return pd.DataFrame(columns=header)
    except Exception as e:
        raise LoadError(f"{rel}: not a readable CSV ({e})") from e
    df = df.reset_index(drop=True)
    for col in df.columns:
        df[col] = _typed(df[col], col)
    return df


def _read_parquet(data, rel):
    try:
        return pd.read_parquet(io.BytesIO(data), engine="pyarrow")
    except Exception as e:
        raise LoadError(f"{rel}: not a readable Parquet file ({e})") from e


def _read_shard(root, files, formats, use_parquet):
    """One shard: its Parquet file when pyarrow imports, else the CSV beside it; verified before parsing."""
    if use_parquet and ".parquet" in formats:
        rel, reader = formats[".parquet"], _read_parquet
    elif ".csv" in formats:
        rel, reader = formats[".csv"], _read_csv
    else:
        rel = formats[".parquet"]
        raise LoadError(
            f"{rel}: cannot read it: Parquet needs pyarrow, which is not installed, and there is no CSV beside it "
            f"({rel[: -len('.parquet')]}.csv); install pyarrow or publish with --csv (pip install pyarrow)"
        )
    if files is not None:
        data = verified_bytes(files, rel)
    else:
        with open(os.path.join(root, *rel.split("/")), "rb") as f:
            data = f.read()
    return reader(data, rel)


def _id_column(df):
    for col in ("series_id", "id", "unique_id"):
        if col in df.columns:
            return col
    raise LoadError(f"no series id column (series_id, id or unique_id) among {list(df.columns)}")


def _as_of_instant(as_of):
    t = pd.Timestamp(as_of)
    if pd.isna(t):
        raise ValueError(f"as_of {as_of!r}: not an instant")
    return t.tz_localize("UTC") if t.tzinfo is None else t.tz_convert("UTC")


def latest_view(df, as_of=None):
    """Per (series_id, timestamp) the row with the greatest available_at (<= as_of when given), withdrawals
    (value null) dropped: the series as known at as_of (latest when None)."""
    if as_of is not None:
        df = df[df["available_at"] <= _as_of_instant(as_of)]
    df = df.sort_values(["series_id", "timestamp", "available_at"], kind="mergesort")
    df = df.drop_duplicates(["series_id", "timestamp"], keep="last")
    return df[df["value"].notna()].reset_index(drop=True)


def load(path, config="observations", split="train", as_of=None, series=None, verify=True):
    """One config/split of a published asof folder as a long pandas DataFrame.

    Every file read is checked against the sha256 manifest.json (else croissant.json) lists, before it is
    parsed; a mismatch or an unlisted file raises VerificationError. Parquet is read when pyarrow imports,
    else the CSV beside it. For 'observations', `as_of` (str or Timestamp; naive means UTC) gives the as-of
    view: per (series_id, timestamp) the latest row available at as_of, withdrawals dropped; without it every
    vintage is returned. `series` (an id or a list of ids) keeps those series.
    """
    root = _root_of(path)
    files = read_file_list(root) if verify else None
    shards, missing = _stems(root, config, split, files)
    if missing:
        raise VerificationError(
            f"{missing[0]}: listed in {files.source} but missing from the folder"
            + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else "")
            + "; re-download the folder",
            path=missing[0],
        )
    use_parquet = _pyarrow_available()
    frames = [_read_shard(root, files, shards[stem], use_parquet) for stem in sorted(shards)]
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    df = _normalise(df)
    if series is not None:
        wanted = [series] if isinstance(series, str) else list(series)
        col = _id_column(df)
        unknown = sorted(set(wanted) - set(df[col].unique()))
        if unknown:
            raise LoadError(f"unknown series in {config}/{split}: {', '.join(unknown)}")
        df = df[df[col].isin(wanted)]
    if config == "observations" or as_of is not None:
        needed = {"series_id", "timestamp", "available_at", "value"}
        if not needed <= set(df.columns):
            if as_of is not None:
                raise ValueError(
                    f"as_of applies to observations (columns {sorted(needed)}); "
                    f"{config}/{split} has {list(df.columns)}"
                )
            return df.reset_index(drop=True)
        if as_of is not None:
            return latest_view(df, as_of)
        df = df.sort_values(["series_id", "timestamp", "available_at"], kind="mergesort")
    return df.reset_index(drop=True)


def verify(path):
    """Checks every data file of the folder against the sha256 its manifest.json (else croissant.json) lists,
    refusing unlisted files and (with manifest.json) listed files that are missing. Returns the checked
    relative paths; raises VerificationError naming the first bad file."""
    root = _root_of(path)
    files = read_file_list(root)
    on_disk = []
    for d, _, names in os.walk(root):
        for name in names:
            rel = os.path.relpath(os.path.join(d, name), root).replace(os.sep, "/")
            if files.source == "manifest.json" and rel != "manifest.json":
                on_disk.append(rel)
            elif files.source == "croissant.json" and rel.startswith("data/"):
                on_disk.append(rel)  # a Croissant card lists the data files, not itself or the README
    on_disk.sort()
    if files.source == "manifest.json":
        for rel in sorted(files.hashes):
            if rel not in on_disk:
                raise VerificationError(f"{rel}: listed in {files.source} but missing from the folder", path=rel)
    for rel in on_disk:
        verified_bytes(files, rel)
    return on_disk
