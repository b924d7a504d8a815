-- fintsb_members: the (series, segment) pairs of each FinTSB-style dataset (SPEC §7, FinTSB §4.1): per
-- movement pattern, up to $datasets datasets of exactly $k series that share one calendar segment (so
-- their days align for the per-day normalisation), drawn from fintsb_candidates.
-- grain: (dataset, series_id)
-- invariants: a dataset holds $k members of one pattern and one segment, of $k distinct instruments and
--   one price field (fintsb_candidates has one series per instrument and segment, all of one field); no
--   (series_id, segment) pair is in two datasets (each pair has one label, and a segment's pool is cut
--   into disjoint chunks). Datasets are numbered per pattern from the most recent segment back; within a
--   segment's pool, members are taken in md5(series_id) order, which mixes detail categories and
--   entities instead of following the alphabet.
WITH source AS (
  SELECT series_id, segment, frequency, detail_category, first_timestamp, last_timestamp, instrument, field,
    pattern
  FROM fintsb_candidates
),
pooled AS (
  SELECT *,
    row_number() OVER (PARTITION BY pattern, segment ORDER BY md5(series_id), series_id) - 1 AS member_rank,
    count(*) OVER (PARTITION BY pattern, segment) AS pool_size
  FROM source
  WHERE pattern IS NOT NULL
),
chunked AS (
  SELECT *, member_rank // $k AS chunk
  FROM pooled
  WHERE member_rank < (pool_size // $k) * $k
),
renamed AS (
  SELECT *, dense_rank() OVER (PARTITION BY pattern ORDER BY segment DESC, chunk) AS dataset_no
  FROM chunked
),
final AS (
  SELECT pattern || '_' || dataset_no AS dataset, pattern, dataset_no, series_id, segment, frequency,
    detail_category, instrument, field, first_timestamp, last_timestamp
  FROM renamed
  WHERE dataset_no <= $datasets
)
SELECT * FROM final
