"""Reads an `asof export qlib` folder the way Qlib lays it out, with no asof code, and checks it against
the universe's own observations (an `asof export csv` of the same universe).

Layout read (Qlib's docs, "Data Layer" and "Point-In-Time Provider"; scripts/dump_bin.py, scripts/dump_pit.py):
- calendars/day.txt: one date per line;
- instruments/all.txt: SYMBOL<TAB>start<TAB>end;
- features/<symbol>/<field>.day.bin: little-endian float32, [start index, values from that calendar day];
- financial/<symbol>/<field>_{q,a}.index: uint32 first year, then per period the byte offset of its first
  record in .data (0xFFFFFFFF: none); .data: records struct "IIdI" (date YYYYMMDD, period, value, next byte
  offset of the period's next revision or 0xFFFFFFFF).

The expected values are computed here from the CSV export: per (series_id, timestamp) the row with the
latest available_at, dropped when its value is empty (a withdrawal). Prints a JSON summary; exits 1 on
any mismatch.

usage: python3 qlib_read_back.py QLIB_DIR CSV_EXPORT_DIR [AS_OF]
(AS_OF, an ISO instant: the export was written with --as-of AS_OF; rows published later are ignored.)
"""

import glob
import json
import os
import struct
import sys

import numpy as np
import pandas as pd

QLIB, CSV = sys.argv[1], sys.argv[2]
FIELDS = {"open", "high", "low", "close", "volume", "factor"}
RESERVED = {"CON", "PRN", "AUX", "NUL"} | {f"COM{i}" for i in range(10)} | {f"LPT{i}" for i in range(10)}
NA = 0xFFFFFFFF
RECORD = "IIdI"
problems = []


def qlib_symbol(code):
    code = code.lower()
    return "_qlib_" + code if code.upper() in RESERVED else code


def ny_date(text):
    ts = pd.to_datetime(text, utc=True)
    return ts.dt.tz_convert("America/New_York").dt.strftime("%Y-%m-%d")


obs = pd.concat(
    [pd.read_csv(f, low_memory=False) for f in sorted(glob.glob(f"{CSV}/observations/*/*.csv"))],
    ignore_index=True,
)
series = pd.read_csv(f"{CSV}/series.csv", low_memory=False).set_index("series_id")
obs["available"] = pd.to_datetime(obs["available_at"], utc=True)
if len(sys.argv) > 3:
    obs = obs[obs["available"] <= pd.Timestamp(sys.argv[3])]
obs = obs.sort_values(["series_id", "timestamp", "available"], kind="stable")
latest = obs.groupby(["series_id", "timestamp"], sort=False).tail(1)
latest = latest[latest["value"].notna()].copy()

# --- the daily feature store
calendar = [line.strip() for line in open(f"{QLIB}/calendars/day.txt") if line.strip()]
position = {d: i for i, d in enumerate(calendar)}
instruments = {}
for line in open(f"{QLIB}/instruments/all.txt"):
    code, start, end = line.rstrip("\n").split("\t")
    instruments[code] = (start, end)

price_ids = [
    s
    for s in series.index
    if series.at[s, "frequency"] in ("BD", "D") and len(s.split(":")) >= 3 and s.split(":")[-1] in FIELDS
]
prices = latest[latest["series_id"].isin(price_ids)].copy()
prices["day"] = ny_date(prices["timestamp"])
expected_calendar = sorted(set(prices["day"]))
if calendar != expected_calendar:
    problems.append(f"calendar: {len(calendar)} days, expected {len(expected_calendar)}")

feature_values = 0
spans = {}
for sid, rows in prices.groupby("series_id"):
    code = sid.split(":")[-2]
    symbol, field = qlib_symbol(code), sid.split(":")[-1]
    spans.setdefault(code.upper(), []).extend(rows["day"])
    path = f"{QLIB}/features/{symbol}/{field}.day.bin"
    if not os.path.exists(path):
        problems.append(f"{sid}: no {path}")
        continue
    data = np.fromfile(path, dtype="<f4")
    start = int(data[0])
    values = data[1:]
    want = dict(zip(rows["day"], rows["value"]))
    for day, value in want.items():
        i = position.get(day, -1) - start
        got = values[i] if 0 <= i < len(values) else np.nan
        if not got == np.float32(value):
            problems.append(f"{sid} {day}: {got} in the file, {value} in the universe")
        feature_values += 1
    present = int((~np.isnan(values)).sum())
    if present != len(want):
        problems.append(f"{sid}: {present} values in the file, {len(want)} in the universe")

for code, days in spans.items():
    if instruments.get(code) != (min(days), max(days)):
        problems.append(f"instrument {code}: {instruments.get(code)}, expected {(min(days), max(days))}")
if set(instruments) != set(spans):
    problems.append(f"instruments: {sorted(set(instruments) ^ set(spans))[:5]} differ")


# --- the point-in-time store
def read_chain(index_path, data_path, period, quarterly):
    with open(index_path, "rb") as f:
        (first_year,) = struct.unpack("I", f.read(4))
        slots = np.fromfile(f, dtype="<u4")
    offset = (period // 100 - first_year) * 4 + period % 100 - 1 if quarterly else period - first_year
    chain = []
    nxt = int(slots[offset]) if 0 <= offset < len(slots) else NA
    with open(data_path, "rb") as f:
        while nxt != NA:
            f.seek(nxt)
            date, got_period, value, nxt = struct.unpack(RECORD, f.read(struct.calcsize(RECORD)))
            if got_period != period:
                problems.append(f"{data_path}: record of period {got_period} in the chain of {period}")
            chain.append((date, value))
    return chain


pit_ids = [
    s
    for s in series.index
    if series.at[s, "source"] == "edgar" and series.at[s, "frequency"] in ("Q", "A") and len(s.split(":")) >= 4
]
pit_obs = obs[obs["series_id"].isin(pit_ids)].copy()
pit_obs["date"] = ny_date(pit_obs["available_at"]).str.replace("-", "").astype(int)
ts_local = pd.to_datetime(pit_obs["timestamp"], utc=True).dt.tz_convert("America/New_York")
pit_periods = 0
pit_records = 0
for (sid, ts), rows in pit_obs.groupby(["series_id", "timestamp"]):
    parts = sid.split(":")
    quarterly = series.at[sid, "frequency"] == "Q"
    local = ts_local[rows.index[0]]
    period = local.year * 100 + (local.month - 1) // 3 + 1 if quarterly else local.year
    field = "".join(c if c.isalnum() or c == "_" else "_" for c in parts[-2].lower())
    base = f"{QLIB}/financial/{qlib_symbol(parts[-3])}/{field}_{'q' if quarterly else 'a'}"
    chain = read_chain(base + ".index", base + ".data", period, quarterly)
    want = [(d, v) for d, v in zip(rows["date"], rows["value"])]
    same = len(chain) == len(want) and all(
        c[0] == w[0] and (c[1] == w[1] or (np.isnan(c[1]) and pd.isna(w[1]))) for c, w in zip(chain, want)
    )
    if not same:
        problems.append(f"{sid} {period}: chain {chain[:4]}, expected {want[:4]}")
    pit_periods += 1
    pit_records += len(chain)

print(
    json.dumps(
        {
            "calendar_days": len(calendar),
            "instruments": len(instruments),
            "price_series": len(price_ids),
            "feature_values": feature_values,
            "pit_series": len(pit_ids),
            "pit_periods": pit_periods,
            "pit_records": pit_records,
            "problems": problems[:20],
            "problem_count": len(problems),
        }
    )
)
sys.exit(1 if problems else 0)
