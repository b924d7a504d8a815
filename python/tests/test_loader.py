"""asof_data against a hand-made published folder (CSV files, manifest.json and croissant.json with real sha256s).

Run: cd python && /usr/bin/python3 -m unittest discover -s tests
"""

import datetime
import hashlib
import io
import json
import math
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import asof_data  # noqa: E402
from asof_data import LoadError, VerificationError, load, to_fev, to_nixtla  # noqa: E402
from asof_data import loader as loader_module  # noqa: E402

JAN = "2020-01-31T23:59:59.999999Z"
FEB = "2020-02-29T23:59:59.999999Z"
MAR = "2020-03-31T23:59:59.999999Z"
HEADER = "series_id,timestamp,period_start,available_at,value,available_at_basis,source_ref,period"

# Two shards of observations. syn:a has a revision (January: 1.0, then 1.5); fred:b's February is published
# (20.0), withdrawn (empty value) and published again (22.0); the series id "NA" must stay text.
SHARD_0 = [
    HEADER,
    f"syn:a,{JAN},2020-01-01T00:00:00.000000Z,2020-02-05T00:00:00.000000Z,1,vintage,a.csv,2020-01",
    f"syn:a,{JAN},2020-01-01T00:00:00.000000Z,2020-03-05T00:00:00.000000Z,1.5,vintage,a.csv,2020-01",
    f"syn:a,{FEB},2020-02-01T00:00:00.000000Z,2020-03-05T00:00:00.000000Z,2,vintage,a.csv,2020-02",
    f"syn:a,{MAR},2020-03-01T00:00:00.000000Z,2020-04-05T00:00:00.000000Z,3,vintage,a.csv,2020-03",
]
SHARD_1 = [
    HEADER,
    f"fred:b,{JAN},2020-01-01T00:00:00.000000Z,2020-02-10T00:00:00.000000Z,10,vintage,b.csv,2020-01",
    f"fred:b,{FEB},2020-02-01T00:00:00.000000Z,2020-03-10T00:00:00.000000Z,20,vintage,b.csv,2020-02",
    f"fred:b,{FEB},2020-02-01T00:00:00.000000Z,2020-04-10T00:00:00.000000Z,,vintage,b.csv,2020-02",
    f"fred:b,{FEB},2020-02-01T00:00:00.000000Z,2020-05-10T00:00:00.000000Z,22,vintage,b.csv,2020-02",
    f"NA,{JAN},2020-01-01T00:00:00.000000Z,2020-02-01T00:00:00.000000Z,5,rule,n.csv,2020-01",
]
SERIES = [
    "series_id,title,frequency,n_obs,source_key,eval_target,fiscal_year_end,score,grid_epoch",
    "NA,North America,M,1,0001,true,,0.5,2000-01-03",
    "fred:b,Series B,M,2,B,false,,,",
    "syn:a,Series A,M,3,2,true,,1e3,2000-01-03",
]
SNAPSHOT = [
    "id,timestamp,target",
    f'syn:a,"[""{JAN}"",""{FEB}""]","[1.5,2.0]"',
]
FILES = {
    "data/observations/train-00000.csv": SHARD_0,
    "data/observations/train-00001.csv": SHARD_1,
    "data/series/train-00000.csv": SERIES,
    "data/snapshot/train-00000.csv": SNAPSHOT,
}


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def write_folder(root, files=FILES, extra=None):
    """A folder as `asof publish --csv` writes it: data files, croissant.json, manifest.json listing all."""
    for rel, lines in files.items():
        path = os.path.join(root, *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write("\n".join(lines) + "\n")
    for rel, data in (extra or {}).items():
        path = os.path.join(root, *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    rels = sorted(list(files) + list(extra or {}))
    croissant = {
        "@context": {"@vocab": "https://schema.org/", "cr": "http://mlcommons.org/croissant/"},
        "@type": "sc:Dataset",
        "name": "tiny",
        "distribution": [{"@type": "cr:FileSet", "@id": "observations", "includes": "data/observations/*.csv"}]
        + [
            {"@type": "cr:FileObject", "@id": rel, "contentUrl": rel, "sha256": sha256(os.path.join(root, rel))}
            for rel in rels
        ],
    }
    with open(os.path.join(root, "croissant.json"), "w", encoding="utf-8") as f:
        json.dump(croissant, f, indent=2)
    outputs = [
        {
            "path": rel,
            "sha256": sha256(os.path.join(root, rel)),
            "bytes": os.path.getsize(os.path.join(root, rel)),
            "table": rel.split("/")[1] if rel.startswith("data/") else "croissant",
        }
        for rel in sorted(rels + ["croissant.json"])
    ]
    manifest = {"dataset_id": "0" * 64, "kind": "publish", "parent_dataset_id": "1" * 64, "outputs": outputs}
    with open(os.path.join(root, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2)


def utc(text):
    return pd.Timestamp(text).tz_convert("UTC")


def rows(df):
    """(series_id, timestamp ISO, value) per row, NaN as None: easy to compare with hand-computed lists."""
    return [
        (r.series_id, r.timestamp.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), None if pd.isna(r.value) else float(r.value))
        for r in df.itertuples()
    ]


class LoaderTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="asof-data-")
        write_folder(self.root)
        # These tests read the CSV files; Parquet (when pyarrow is installed) has its own test below.
        patcher = mock.patch.object(loader_module, "_pyarrow_available", return_value=False)
        patcher.start()
        self.addCleanup(patcher.stop)

    def tearDown(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def test_every_vintage_without_as_of(self):
        df = load(self.root)
        self.assertEqual(len(df), 9)
        self.assertEqual(
            rows(df),
            [
                ("NA", JAN, 5.0),
                ("fred:b", JAN, 10.0),
                ("fred:b", FEB, 20.0),
                ("fred:b", FEB, None),
                ("fred:b", FEB, 22.0),
                ("syn:a", JAN, 1.0),
                ("syn:a", JAN, 1.5),
                ("syn:a", FEB, 2.0),
                ("syn:a", MAR, 3.0),
            ],
        )
        for col in ("timestamp", "available_at", "period_start"):
            self.assertEqual(str(df[col].dt.tz), "UTC", col)
        self.assertEqual(df["timestamp"].iloc[0], utc("2020-01-31T23:59:59.999999Z"))
        self.assertEqual(df["period"].tolist()[:2], ["2020-01", "2020-01"])
        self.assertEqual(df["source_ref"].iloc[0], "n.csv")

    def test_as_of_view(self):
        self.assertEqual(
            rows(load(self.root, as_of="2020-03-06")),  # naive: UTC
            [("NA", JAN, 5.0), ("fred:b", JAN, 10.0), ("syn:a", JAN, 1.5), ("syn:a", FEB, 2.0)],
        )
        # fred:b's February was withdrawn on 2020-04-10: no value there until it is published again.
        self.assertEqual(
            rows(load(self.root, as_of=pd.Timestamp("2020-04-15"))),
            [
                ("NA", JAN, 5.0),
                ("fred:b", JAN, 10.0),
                ("syn:a", JAN, 1.5),
                ("syn:a", FEB, 2.0),
                ("syn:a", MAR, 3.0),
            ],
        )
        self.assertEqual(
            rows(load(self.root, as_of="2020-06-01T00:00:00Z")),
            [
                ("NA", JAN, 5.0),
                ("fred:b", JAN, 10.0),
                ("fred:b", FEB, 22.0),
                ("syn:a", JAN, 1.5),
                ("syn:a", FEB, 2.0),
                ("syn:a", MAR, 3.0),
            ],
        )
        # available_at <= as_of includes the instant itself; an offset is converted to UTC.
        expected = [("NA", JAN, 5.0), ("syn:a", JAN, 1.0)]
        self.assertEqual(rows(load(self.root, as_of="2020-02-05T00:00:00Z")), expected)
        self.assertEqual(rows(load(self.root, as_of="2020-02-04T19:00:00-05:00")), expected)
        self.assertEqual(rows(load(self.root, as_of="2020-02-04T23:59:59.999999Z")), [("NA", JAN, 5.0)])
        self.assertEqual(len(load(self.root, as_of="2019-01-01")), 0)
        df = load(self.root, as_of="2020-04-15")
        self.assertEqual(str(df["available_at"].dt.tz), "UTC")
        self.assertTrue((df["available_at"] <= utc("2020-04-15T00:00:00Z")).all())

    def test_naive_instants_are_utc(self):
        root = tempfile.mkdtemp(prefix="asof-data-naive-")
        self.addCleanup(shutil.rmtree, root, True)
        lines = ["series_id,timestamp,available_at,value", "x,2020-01-31 23:59:59,2020-02-05T00:00:00,1"]
        write_folder(root, files={"data/observations/train-00000.csv": lines})
        df = load(root, as_of="2020-02-05")
        self.assertEqual(df["timestamp"].tolist(), [utc("2020-01-31T23:59:59Z")])
        self.assertEqual(df["available_at"].tolist(), [utc("2020-02-05T00:00:00Z")])

    def test_series_filter(self):
        self.assertEqual(
            rows(load(self.root, series="syn:a", as_of="2020-03-06")), [("syn:a", JAN, 1.5), ("syn:a", FEB, 2.0)]
        )
        self.assertEqual(len(load(self.root, series=["NA", "fred:b"])), 5)
        with self.assertRaisesRegex(LoadError, "unknown series.*nope"):
            load(self.root, series=["syn:a", "nope"])

    def test_to_nixtla(self):
        nx = to_nixtla(load(self.root))  # every vintage: the latest per timestamp, withdrawals dropped
        self.assertEqual(list(nx.columns), ["unique_id", "ds", "y"])
        self.assertEqual(
            [(r.unique_id, r.ds.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), r.y) for r in nx.itertuples()],
            [
                ("NA", JAN, 5.0),
                ("fred:b", JAN, 10.0),
                ("fred:b", FEB, 22.0),
                ("syn:a", JAN, 1.5),
                ("syn:a", FEB, 2.0),
                ("syn:a", MAR, 3.0),
            ],
        )
        self.assertEqual(str(nx["ds"].dt.tz), "UTC")
        at = to_nixtla(load(self.root, as_of="2020-04-15"))
        self.assertEqual(at["unique_id"].tolist(), ["NA", "fred:b", "syn:a", "syn:a", "syn:a"])
        self.assertEqual(at["y"].tolist(), [5.0, 10.0, 1.5, 2.0, 3.0])

    def test_to_fev(self):
        fev = to_fev(load(self.root, as_of="2020-04-15"))
        self.assertEqual(list(fev.columns), ["id", "timestamp", "target"])
        self.assertEqual(fev["id"].tolist(), ["NA", "fred:b", "syn:a"])
        a = fev[fev["id"] == "syn:a"].iloc[0]
        self.assertEqual(a["timestamp"], [utc(JAN), utc(FEB), utc(MAR)])
        self.assertEqual(a["target"], [1.5, 2.0, 3.0])
        self.assertEqual(fev[fev["id"] == "fred:b"].iloc[0]["target"], [10.0])

    def test_other_configs(self):
        series = load(self.root, config="series")
        self.assertEqual(series["series_id"].tolist(), ["NA", "fred:b", "syn:a"])
        self.assertEqual(series["n_obs"].tolist(), [1, 2, 3])
        self.assertEqual(series["n_obs"].dtype, "int64")
        self.assertEqual(series["source_key"].tolist(), ["0001", "B", "2"])  # codes stay text
        self.assertEqual(series["eval_target"].tolist(), [True, False, True])
        self.assertTrue(series["fiscal_year_end"].isna().all())
        self.assertEqual(series["score"].tolist()[0::2], [0.5, 1000.0])
        self.assertTrue(math.isnan(series["score"].iloc[1]))
        epoch = datetime.date(2000, 1, 3)
        self.assertEqual(series["grid_epoch"].tolist(), [epoch, None, epoch])
        snap = load(self.root, config="snapshot")
        self.assertEqual(snap.iloc[0]["timestamp"], [utc(JAN), utc(FEB)])
        self.assertEqual(snap.iloc[0]["target"], [1.5, 2.0])
        self.assertEqual(to_fev(snap)["id"].tolist(), ["syn:a"])
        with self.assertRaisesRegex(LoadError, "no config 'nope'.*observations, series, snapshot"):
            load(self.root, config="nope")
        with self.assertRaisesRegex(LoadError, "no split 'test'.*train"):
            load(self.root, split="test")
        with self.assertRaisesRegex(ValueError, "as_of applies to observations"):
            load(self.root, config="series", as_of="2020-01-01")

    def test_flipped_byte_is_refused_before_parsing(self):
        rel = "data/observations/train-00001.csv"
        path = os.path.join(self.root, *rel.split("/"))
        expected = sha256(path)
        with open(path, "r+b") as f:
            f.seek(200)
            byte = f.read(1)
            f.seek(200)
            f.write(bytes([byte[0] ^ 0x01]))
        actual = sha256(path)
        with mock.patch.object(loader_module, "_read_csv", wraps=loader_module._read_csv) as read_csv:
            with self.assertRaises(VerificationError) as caught:
                load(self.root)
            parsed = [c.args[1] for c in read_csv.call_args_list]
        self.assertNotIn(rel, parsed)  # the tampered file was never parsed
        message = str(caught.exception)
        self.assertIn(rel, message)
        self.assertIn(expected, message)
        self.assertIn(actual, message)
        e = caught.exception
        self.assertEqual((e.path, e.expected, e.actual), (rel, expected, actual))
        # verify=False reads it anyway.
        self.assertEqual(len(load(self.root, verify=False)), 9)
        with self.assertRaisesRegex(VerificationError, rel):
            asof_data.verify(self.root)

    def test_unlisted_file_is_refused(self):
        rel = "data/observations/train-00002.csv"
        with open(os.path.join(self.root, *rel.split("/")), "w", encoding="utf-8") as f:
            f.write(HEADER + "\n" + f"syn:a,{JAN},,2020-01-01T00:00:00Z,99,vintage,x,2020-01\n")
        with self.assertRaisesRegex(VerificationError, rf"{rel}: not listed in manifest\.json"):
            load(self.root)
        with self.assertRaisesRegex(VerificationError, rf"{rel}: not listed"):
            asof_data.verify(self.root)

    def test_listed_file_missing(self):
        rel = "data/observations/train-00001.csv"
        os.remove(os.path.join(self.root, *rel.split("/")))
        with self.assertRaisesRegex(VerificationError, rf"{rel}: listed in manifest\.json but missing"):
            load(self.root)

    def test_croissant_when_no_manifest(self):
        os.remove(os.path.join(self.root, "manifest.json"))
        self.assertEqual(len(load(self.root, as_of="2020-03-06")), 4)
        rel = "data/series/train-00000.csv"
        with open(os.path.join(self.root, *rel.split("/")), "a", encoding="utf-8") as f:
            f.write("x:y,Extra,M,0\n")
        mismatch = rf"{rel}: sha256 mismatch: expected [0-9a-f]{{64}} \(croissant\.json\), actual [0-9a-f]{{64}}"
        with self.assertRaisesRegex(VerificationError, mismatch):
            load(self.root, config="series")
        os.remove(os.path.join(self.root, "croissant.json"))
        with self.assertRaisesRegex(LoadError, "neither manifest.json nor croissant.json"):
            load(self.root)
        self.assertEqual(len(load(self.root, config="series", verify=False)), 4)

    def test_croissant_with_urls(self):
        # A card on a hub may give each contentUrl as a full address; the path's tail names the file.
        os.remove(os.path.join(self.root, "manifest.json"))
        path = os.path.join(self.root, "croissant.json")
        with open(path, encoding="utf-8") as f:
            card = json.load(f)
        for d in card["distribution"]:
            if "contentUrl" in d:
                d["contentUrl"] = "https://huggingface.co/datasets/o/tiny/resolve/main/" + d["contentUrl"]
        with open(path, "w", encoding="utf-8") as f:
            json.dump(card, f)
        self.assertEqual(len(load(self.root, as_of="2020-03-06")), 4)
        self.assertEqual(len(asof_data.verify(self.root)), 4)  # the data files; the card does not list itself

    def test_verify_and_manifest_path(self):
        checked = asof_data.verify(self.root)
        self.assertIn("croissant.json", checked)
        self.assertEqual(len(checked), 5)
        self.assertEqual(len(load(os.path.join(self.root, "manifest.json"))), 9)

    def test_parquet_without_pyarrow_or_csv(self):
        root = tempfile.mkdtemp(prefix="asof-data-pq-")
        self.addCleanup(shutil.rmtree, root, True)
        rel = "data/observations/train-00000.parquet"
        write_folder(root, files={}, extra={rel: b"PAR1 not really parquet PAR1"})
        with self.assertRaises(LoadError) as caught:
            load(root)
        self.assertIn(rel, str(caught.exception))
        self.assertIn("install pyarrow or publish with --csv", str(caught.exception))
        # With the CSV beside it, the CSV is read.
        root2 = tempfile.mkdtemp(prefix="asof-data-pq2-")
        self.addCleanup(shutil.rmtree, root2, True)
        write_folder(root2, files={"data/observations/train-00000.csv": SHARD_0}, extra={rel: b"PAR1 x PAR1"})
        self.assertEqual(len(load(root2)), 4)


@unittest.skipUnless(loader_module._pyarrow_available(), "pyarrow is not installed: Parquet reading not tested")
class ParquetTest(unittest.TestCase):
    def test_parquet_equals_csv(self):
        csv_root = tempfile.mkdtemp(prefix="asof-data-csv-")
        pq_root = tempfile.mkdtemp(prefix="asof-data-pq-")
        self.addCleanup(shutil.rmtree, csv_root, True)
        self.addCleanup(shutil.rmtree, pq_root, True)
        write_folder(csv_root)
        extra = {}
        # Write each observation shard as Parquet with microsecond UTC instants, as asof does.
        with mock.patch.object(loader_module, "_pyarrow_available", return_value=False):
            shards = {
                rel: loader_module._normalise(loader_module._read_csv("\n".join(lines).encode(), rel))
                for rel, lines in FILES.items()
                if rel.startswith("data/observations/")
            }
        for rel, df in shards.items():
            buf = io.BytesIO()
            df.to_parquet(buf, engine="pyarrow", index=False)
            extra[rel[: -len(".csv")] + ".parquet"] = buf.getvalue()
        write_folder(pq_root, files={}, extra=extra)
        got = load(pq_root, as_of="2020-04-15")
        with mock.patch.object(loader_module, "_pyarrow_available", return_value=False):
            want = load(csv_root, as_of="2020-04-15")
        pd.testing.assert_frame_equal(got, want, check_dtype=False)

    def test_snapshot_lists(self):
        import pyarrow as pa
        import pyarrow.parquet as pq

        root = tempfile.mkdtemp(prefix="asof-data-snap-")
        self.addCleanup(shutil.rmtree, root, True)
        table = pa.table(
            {
                "id": ["syn:a"],
                "timestamp": pa.array([[utc(JAN), utc(FEB)]], pa.list_(pa.timestamp("us", tz="UTC"))),
                "target": pa.array([[1.5, 2.0]], pa.list_(pa.float64())),
            }
        )
        buf = io.BytesIO()
        pq.write_table(table, buf)
        write_folder(root, files={}, extra={"data/snapshot/train-00000.parquet": buf.getvalue()})
        snap = load(root, config="snapshot")
        self.assertEqual(snap.iloc[0]["timestamp"], [utc(JAN), utc(FEB)])
        self.assertEqual(snap.iloc[0]["target"], [1.5, 2.0])
        self.assertIsInstance(snap.iloc[0]["target"][0], float)


if __name__ == "__main__":
    unittest.main()
