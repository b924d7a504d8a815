#!/usr/bin/env python3
"""An exponentially weighted mean with a volatility estimate, emitting quantiles q0.05 ... q0.95.

Speaks the asof model protocol (docs/model-protocol.md) on stdin/stdout; standard library only:

    asof run --manifest SPLIT/manifest.json --model "python3 examples/python/ewma_model.py" \
        --name ewma --out out/ewma.parquet --score out/ewma-score

fit: per series, the variance of one-step changes over the training snapshot (log changes for a
series that is positive throughout). predict: the EW mean of the origin's inputs (in logs when they are
all positive) is the median of every step; the spread grows with the square root of the steps from the
last public value, its variance an even blend of the training and the inputs' EW variance.
"""
import json
import math
import sys
from statistics import NormalDist

ALPHA = 0.3  # weight of the newest value in the EW mean and variance
LEVELS = [round(0.05 * i, 2) for i in range(1, 20)]
Z = [NormalDist().inv_cdf(q) for q in LEVELS]

train_var = {}  # series_id -> variance of one-step changes in training (logs when positive)


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")))
    sys.stdout.write("\n")
    sys.stdout.flush()


def change_variance(xs):
    """Plain variance of one-step changes, or None with fewer than two changes."""
    d = [b - a for a, b in zip(xs, xs[1:])]
    if len(d) < 2:
        return None
    mean = sum(d) / len(d)
    return sum((x - mean) ** 2 for x in d) / (len(d) - 1)


def fit(message):
    values = message["history"]["values"]
    positive = len(values) > 0 and min(values) > 0
    xs = [math.log(v) for v in values] if positive else values
    var = change_variance(xs)
    if var is not None:
        train_var[message["series_id"]] = (positive, var)


def forecast(task):
    values = task["inputs"]["values"]
    horizon = task["horizon"]
    if not values:
        return {"series_id": task["series_id"], "skip": True}
    positive = min(values) > 0
    xs = [math.log(v) for v in values] if positive else values
    level = xs[0]
    ew_var = None
    for prev, x in zip(xs, xs[1:]):
        change = x - prev
        ew_var = change * change if ew_var is None else (1 - ALPHA) * ew_var + ALPHA * change * change
        level = (1 - ALPHA) * level + ALPHA * x
    trained = train_var.get(task["series_id"])
    trained_var = trained[1] if trained and trained[0] == positive else None
    known = [v for v in (trained_var, ew_var) if v is not None]
    sigma = math.sqrt(sum(known) / len(known)) if known else 0.0
    lag = task["inputs"]["back"][-1]  # steps from the last public value to the origin
    back = math.exp if positive else (lambda x: x)
    point = [back(level)] * horizon
    quantiles = []
    for z in Z:
        quantiles.append([back(level + z * sigma * math.sqrt(k + lag)) for k in range(1, horizon + 1)])
    return {"series_id": task["series_id"], "point": point, "quantiles": quantiles}


def main():
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            send({"type": "hello", "protocol": 1, "name": "ewma", "version": "1", "fit": True, "quantiles": LEVELS})
        elif kind == "fit":
            fit(message)
        elif kind == "fit_end":
            send({"type": "ready"})
        elif kind == "predict":
            send({"type": "forecast", "batch": message["batch"], "paths": [forecast(t) for t in message["tasks"]]})
        elif kind == "bye":
            return


if __name__ == "__main__":
    main()
