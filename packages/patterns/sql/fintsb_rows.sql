-- fintsb_rows: the exported panel — for each dataset, member series and step of the first $length grid
-- steps of its segment, with cross-sectionally normalised features and the 7:1:2 split in time.
-- grain: (dataset, series_id, step)
-- invariants: ret_z and ret_rank of a row use only the rows of the same dataset and step (that day's
--   values, no other day's); ret uses only the series' value at this step and its previous observed
--   step in the segment. split is 'train' for step < round(0.7·$length), 'valid' for
--   step < round(0.8·$length), else 'test' — by grid step, so every series of a dataset shares the
--   split dates. Steps without an observation have no row.
WITH keyed_series AS (
  -- The same numbering as segment_steps.series_key (segment_placed.sql's).
  SELECT series_id, CAST(row_number() OVER (ORDER BY series_id) AS INTEGER) AS series_key
  FROM series
),
source AS (
  SELECT m.dataset, m.pattern, m.series_id, m.segment, st.step, st."timestamp", st.value, st.ret
  FROM fintsb_members AS m
  JOIN keyed_series AS k USING (series_id)
  JOIN segment_steps AS st ON st.series_key = k.series_key AND st.segment = m.segment
  WHERE st.step < $length
),
renamed AS (
  SELECT *,
    CASE
      WHEN step < round(0.7 * $length) THEN 'train'
      WHEN step < round(0.8 * $length) THEN 'valid'
      ELSE 'test'
    END AS split
  FROM source
),
final AS (
  SELECT dataset, pattern, series_id, segment, step, "timestamp", split, value, ret,
    (ret - avg(ret) OVER day) / nullif(stddev_pop(ret) OVER day, 0) AS ret_z,
    CASE WHEN ret IS NOT NULL THEN percent_rank() OVER (PARTITION BY dataset, step, ret IS NULL ORDER BY ret) END AS ret_rank
  FROM renamed
  -- Ordered, whole-partition frames: the float sums run in one order, so files are byte-reproducible.
  WINDOW day AS (PARTITION BY dataset, step ORDER BY series_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
)
SELECT * FROM final
