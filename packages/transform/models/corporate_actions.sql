-- corporate_actions: splits and dividends with their own availability (SPEC §3).
-- grain: (entity_id, ex_date, kind)
-- invariants: the first-staged row of a grain wins; conflicting duplicates are reported in invariant_violations.
WITH source AS (
  SELECT * FROM stg_corporate_actions
),
renamed AS (
  SELECT
    entity_id,
    CAST(ex_date AS DATE) AS ex_date,
    kind,
    value,
    make_timestamptz(CAST(available_at_us AS BIGINT)) AS available_at,
    source_ref,
    stage_seq
  FROM source
),
final AS (
  SELECT entity_id, ex_date, kind, value, available_at, source_ref
  FROM renamed
  QUALIFY row_number() OVER (PARTITION BY entity_id, ex_date, kind ORDER BY stage_seq) = 1
)
SELECT * FROM final
