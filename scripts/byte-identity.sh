#!/usr/bin/env bash
# The byte-identity lists issue 53 (one house with thin doors) holds every restructuring slice to: the default
# build's dataset_id and every file's sha256, the scale-0.05 build's and its split's, and the default per-origin
# baselines file (asof split --dm, then asof baselines). Run it before and after a slice and diff the outputs:
#   bash scripts/byte-identity.sh > before.txt; …; bash scripts/byte-identity.sh > after.txt; diff before.txt after.txt
# Writes only into a temporary folder (removed at the end); prints nothing but the lists on stdout.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
asof="$repo/packages/cli/bin/asof.mjs"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/asof-byte-identity-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ASOF_STATE_DIR="$tmp/state"
run() { node "$asof" "$@" >"$tmp/last.log" 2>&1 || { cat "$tmp/last.log" >&2; exit 1; }; }
# A manifest's outputs, one "path sha256" line each, in the manifest's order; with --id its dataset_id first.
# A split's dataset_id is left out: it covers its parent manifest's sha256, and so the parent's provenance
# (created_by.git_commit, which differs between the two commits compared), not only the data.
list() {
  node -e 'const [file, id] = process.argv.slice(1); const m = JSON.parse(require("fs").readFileSync(file, "utf8"));
    if (id) console.log(`dataset_id ${m.dataset_id}`);
    for (const o of m.outputs) console.log(`${o.path} ${o.sha256}`);' "$@"
}

cd "$repo"
run build pipelines/default.json --out "$tmp/default"
echo "## default build"; list "$tmp/default/manifest.json" --id

run split --manifest "$tmp/default/manifest.json" --out "$tmp/default-dm" --dm
run baselines --manifest "$tmp/default-dm/manifest.json" --out "$tmp/default-dm-baselines.parquet"
echo "## default split --dm"; list "$tmp/default-dm/manifest.json"
echo "## default per-origin baselines"; sha256sum "$tmp/default-dm-baselines.parquet" | cut -d' ' -f1

node -e 'const c = JSON.parse(require("fs").readFileSync("pipelines/scale.json", "utf8"));
  delete c.$schema; c.name = "scale-005"; c.sources.scale.scale = 0.05;
  require("fs").writeFileSync(process.argv[1], JSON.stringify(c));' "$tmp/scale-005.json"
run build "$tmp/scale-005.json" --out "$tmp/scale-005"
echo "## scale 0.05 build"; list "$tmp/scale-005/manifest.json" --id
run split --manifest "$tmp/scale-005/manifest.json" --out "$tmp/scale-005-split"
echo "## scale 0.05 split"; list "$tmp/scale-005-split/manifest.json"
