#!/usr/bin/env python3
"""Seasonal naive on the series' grid, through the asof model protocol (docs/model-protocol.md).

Standard library only. Step k after the origin is forecast with the value one season earlier,
the grid step k - m*ceil(k/m) from the origin (m = 5 business days, 7 days, 52 weeks, 12 months, 4 quarters;
annual: the last value). When that step is not public at the origin yet (a monthly value released mid-next
month), the same season one, two ... seasons earlier; when none is there, the last public value.

    asof run --manifest SPLIT/manifest.json --model "python3 examples/python/seasonal_model.py" \
        --name seasonal --out out/seasonal.parquet
"""
import json
import sys

SEASON = {"BD": 5, "D": 7, "W": 52, "M": 12, "Q": 4, "A": 1}


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")))
    sys.stdout.write("\n")
    sys.stdout.flush()


def forecast(task):
    inputs = task["inputs"]
    if not inputs["values"]:
        return {"series_id": task["series_id"], "skip": True}
    # back: grid steps from a row's period to the origin's own (0 = the origin's period)
    by_back = dict(zip(inputs["back"], inputs["values"]))
    last = inputs["values"][-1]
    oldest = max(inputs["back"])
    m = SEASON.get(task["frequency"], 1)
    point = []
    for k in range(1, task["horizon"] + 1):
        b = m * -(-k // m) - k  # the step k - m*ceil(k/m), counted back from the origin
        value = None
        if m > 1:
            while b <= oldest and value is None:
                value = by_back.get(b)
                b += m
        point.append(last if value is None else value)
    return {"series_id": task["series_id"], "point": point}


def main():
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            # no fit: the seasonal naive needs only the inputs of each origin
            send({"type": "hello", "protocol": 1, "name": "seasonal", "version": "1", "fit": False})
        elif kind == "predict":
            send({"type": "forecast", "batch": message["batch"], "paths": [forecast(t) for t in message["tasks"]]})
        elif kind == "bye":
            return


if __name__ == "__main__":
    main()
