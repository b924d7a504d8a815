-- membership: when each entity was a member of a universe, as each source knew it (SPEC §3, docs/decisions/
-- 0021-point-in-time-membership.md). Sources: 'membership_csv' (index changes, from each announcement),
-- 'edgar_submissions' (universe 'listed': exchange registration and removal/deregistration filings at their
-- acceptance times), 'price_bars' (universe 'listed': the first and last bar of an instrument's price files).
-- Bitemporal like observations: one row per version of an interval [from, to); an end that became known
-- later is a second row with the same "from", its "to" and that later available_at.
-- grain: (entity_id, universe, source, "from", available_at)
-- invariants: "to" is null (no end known) or after "from"; available_at is null only together with "from"
--   (a member since before the source's records, known from the start); of two rows sharing the grain
--   (two price files of one instrument), the one with the later "to" wins (NULL = open is the latest), then
--   the first staged. effective_from/effective_to are the source's stated effective dates, for reference.
WITH source AS (
  SELECT * FROM stg_membership
),
renamed AS (
  SELECT
    entity_id,
    universe,
    make_timestamptz(CAST(from_us AS BIGINT)) AS "from",
    make_timestamptz(CAST(to_us AS BIGINT)) AS "to",
    make_timestamptz(CAST(available_at_us AS BIGINT)) AS available_at,
    source,
    source_ref,
    CAST(effective_from AS DATE) AS effective_from,
    CAST(effective_to AS DATE) AS effective_to,
    stage_seq
  FROM source
),
final AS (
  SELECT entity_id, universe, "from", "to", available_at, source, source_ref, effective_from, effective_to
  FROM renamed
  QUALIFY row_number() OVER (
    PARTITION BY entity_id, universe, source, "from", available_at ORDER BY "to" DESC NULLS FIRST, stage_seq
  ) = 1
)
SELECT * FROM final
