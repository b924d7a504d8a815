#!/usr/bin/env python3
"""Reference vectors for @asof/stats' sequence characteristics (SPEC §7).

Independent implementations: statsmodels `adfuller` (ADF statistic, used lag, nobs) and `acf`
(lag-1 autocorrelation); forecastability with numpy's FFT using the definition documented in
src/stats/forecastability.ts. Deterministic (fixed seed); rerun with

    /usr/bin/python3 packages/stats/reference/make-reference.py

Produced with Debian bookworm's python3-statsmodels 0.13.5, python3-numpy 1.24.2, python3-scipy 1.10.1
(`apt-get install -y python3-statsmodels python3-numpy python3-scipy`). The versions are written into
vectors.json.
"""

import json
import math
import os
import subprocess
import sys

import numpy as np
import scipy
import statsmodels
from statsmodels.tsa.stattools import acf, adfuller

rng = np.random.default_rng(20261130)


def ar1(phi, n, burn=200, scale=1.0):
    e = rng.standard_normal(n + burn) * scale
    x = np.empty(n + burn)
    x[0] = e[0]
    for t in range(1, n + burn):
        x[t] = phi * x[t - 1] + e[t]
    return x[burn:]


def forecastability(x):
    """1 - H/log(M) over the M = n//2 positive Fourier frequencies (DC excluded, Nyquist included)."""
    x = np.asarray(x, dtype=float)
    n = x.size
    m = n // 2
    spec = np.abs(np.fft.rfft(x - x.mean())) ** 2
    spec = spec[1 : m + 1]
    p = spec / spec.sum()
    p = p[p > 0]
    h = -np.sum(p * np.log(p))
    return float(1.0 - h / math.log(m))


cases = []


def add(name, x, regression="ct", autolag="AIC", maxlag=None, adf=True):
    cases.append((name, np.asarray(x, dtype=float), regression, autolag, maxlag, adf))


# Unit-root levels.
for n in (60, 250, 1000):
    add(f"random walk n={n}", np.cumsum(rng.standard_normal(n)))
# Stationary and near-unit-root AR(1) at lengths spanning the segment sizes.
for phi, n in ((-0.5, 250), (0.0, 100), (0.3, 250), (0.7, 500), (0.95, 1000), (0.95, 60), (0.3, 777), (-0.5, 1024)):
    add(f"AR(1) phi={phi} n={n}", ar1(phi, n))
# Deterministic trends with stationary and unit-root noise.
t = np.arange(300)
add("linear trend + white noise n=300", 5.0 + 0.05 * t + rng.standard_normal(300))
add("linear trend + random walk n=400", 0.2 * np.arange(400) + np.cumsum(rng.standard_normal(400)))
add("trend + AR(0.7) n=128", -3.0 + 0.1 * np.arange(128) + ar1(0.7, 128))
# Periodic: a noisy sine on a non-Fourier frequency, and a pure sine on a Fourier frequency (ADF is
# ill-posed there — the differences satisfy an exact AR(2) — so only ACF/forecastability are kept).
add("sine period 23.7 + noise n=600", np.sin(2 * np.pi * np.arange(600) / 23.7) + 0.2 * rng.standard_normal(600))
add("pure sine k=8 n=256", np.sin(2 * np.pi * 8 * np.arange(256) / 256), adf=False)
# White noise and daily-return-like data (fat tails, small scale, nonzero mean).
add("white noise n=250", rng.standard_normal(250))
add("white noise n=999", rng.standard_normal(999))
add("t(3) returns n=250", 0.0004 + 0.012 * rng.standard_t(3, 250))
add("t(4) returns n=365", 0.0002 + 0.02 * rng.standard_t(4, 365))
add("GARCH-like returns n=250", 0.01 * rng.standard_normal(250) * np.exp(0.5 * np.cumsum(0.1 * rng.standard_normal(250))))
add("prices level n=250", 100 * np.exp(np.cumsum(0.0003 + 0.015 * rng.standard_normal(250))))
add("short returns n=60", 0.001 + 0.02 * rng.standard_normal(60))
# Richer short-run dynamics, so AIC picks several lags.
def ar(coefs, n, burn=200):
    e = rng.standard_normal(n + burn)
    x = np.zeros(n + burn)
    for t in range(len(coefs), n + burn):
        x[t] = np.dot(coefs, x[t - len(coefs) : t][::-1]) + e[t]
    return x[burn:]


add("AR(3) 0.4,-0.3,0.25 n=250", ar([0.4, -0.3, 0.25], 250))
add("AR(5) returns-like n=500", 0.01 * ar([0.1, -0.2, 0.15, -0.1, 0.3], 500))
# Very short series, where statsmodels caps the default maxlag at n//2 - ntrend - 1.
add("white noise n=20 (maxlag cap)", rng.standard_normal(20))
add("random walk n=30 regression=c (maxlag cap)", np.cumsum(rng.standard_normal(30)), regression="c")
# Numerically hard designs: a near-deterministic trend (level and trend columns collinear to ~1e-9,
# which must push the TypeScript fit from Gram/Cholesky to Householder QR) and a level far from zero
# with tiny moves (raw Gram entries would cancel catastrophically without centring).
add("near-deterministic trend n=250", 0.5 * np.arange(250) + 0.001 * rng.standard_normal(250))
add("level 1e4 with 1e-4 moves n=500", 1e4 + np.cumsum(1e-4 * rng.standard_normal(500)))
# Option coverage: constant-only regression, fixed lag (no autolag), explicit maxlag.
add("AR(0.3) regression=c n=250", ar1(0.3, 250), regression="c")
add("random walk regression=c n=500", np.cumsum(rng.standard_normal(500)), regression="c")
add("AR(0.7) autolag=None maxlag=4 n=250", ar1(0.7, 250), autolag=None, maxlag=4)
add("white noise maxlag=2 n=120", rng.standard_normal(120), maxlag=2)
add("AR(0.5) autolag=None default maxlag n=90", ar1(0.5, 90), autolag=None)

vectors = []
for name, x, regression, autolag, maxlag, do_adf in cases:
    entry = {
        "name": name,
        "x": [float(v) for v in x],
        "acf1": float(acf(x, nlags=1, fft=False)[1]),
        "forecastability": forecastability(x),
    }
    if do_adf:
        res = adfuller(x, maxlag=maxlag, regression=regression, autolag=autolag, regresults=True)
        store = res[3]
        entry["adf"] = {
            "regression": regression,
            "autolag": autolag,
            "maxlag": maxlag,
            "stat": float(store.adfstat),
            "usedLag": int(store.usedlag),
            "nobs": int(store.nobs),
        }
        if autolag is not None:
            aics = sorted(r.aic for r in store.autolag_results.values())
            # How far the runner-up AIC is from the winner: a tiny gap would make the lag choice
            # sensitive to rounding; recorded so a mismatch can be diagnosed.
            entry["adf"]["aicGap"] = float(aics[1] - aics[0])
    vectors.append(entry)

out = {
    "generator": "packages/stats/reference/make-reference.py",
    "versions": {
        "python": sys.version.split()[0],
        "statsmodels": statsmodels.__version__,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
    },
    "vectors": vectors,
}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
with open(path, "w") as f:
    json.dump(out, f, separators=(",", ":"))
    f.write("\n")
# The repo's `biome check` formats JSON too; format here so a rerun reproduces the committed bytes
# (biome keeps number literals verbatim, so the values are Python's round-trip reprs either way).
repo = os.path.abspath(os.path.join(os.path.dirname(path), "..", "..", ".."))
try:
    subprocess.run(["npx", "biome", "format", "--write", path], cwd=repo, check=True, capture_output=True)
except (OSError, subprocess.CalledProcessError) as err:
    print(f"warning: could not run `npx biome format` ({err}); run `npx biome check --write .` in packages/stats")
print(f"{len(vectors)} vectors, {os.path.getsize(path)} bytes -> {path}")
for v in vectors:
    a = v.get("adf")
    print(f"  {v['name']:45s} acf1={v['acf1']:+.4f} phi={v['forecastability']:.4f}"
          + (f" adf={a['stat']:+.4f} lag={a['usedLag']} nobs={a['nobs']} gap={a.get('aicGap', float('nan')):.3g}" if a else ""))
