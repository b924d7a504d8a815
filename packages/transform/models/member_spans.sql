-- member_spans: the membership rule resolved into time spans, so that a cross-section at any instant t
-- needs one range lookup: entity e is a member at t iff the span of e covering t has member = true, and an
-- entity without spans (nothing in `membership` names it) is always a member (docs/decisions/0021).
-- The rule, at t, on the rows of `membership` as known at t (per interval, the version with the greatest
-- available_at <= t; a null available_at is known from the start):
--   - an entity that any membership file names is a member only while inside an interval of one of its
--     index universes (an entity outside every index is not in the cross-section);
--   - and it must be listed: inside a 'listed' interval of its EDGAR submissions when it has any, else of its
--     price files when it has any, else (no listing rows) listed.
-- Each condition compares t with the rows' instants, so membership only changes at a "from", "to" or
-- available_at: evaluating the rule at each of those instants (and at the beginning of time, "from" null)
-- and merging equal neighbours gives every span.
-- grain: (entity_id, "from")
-- invariants: per entity, spans are contiguous and cover all time ("from" null first, "to" null last, each
--   "to" the next "from"); neighbouring spans differ in member.
WITH source AS (
  SELECT * FROM membership
),
constrained AS (
  SELECT
    entity_id,
    bool_or(source = 'membership_csv') AS by_index,
    bool_or(source = 'edgar_submissions') AS by_edgar,
    bool_or(source = 'price_bars') AS by_bars
  FROM source
  GROUP BY entity_id
),
instants AS (
  SELECT entity_id, NULL::TIMESTAMPTZ AS t FROM constrained
  UNION SELECT entity_id, "from" FROM source WHERE "from" IS NOT NULL
  UNION SELECT entity_id, "to" FROM source WHERE "to" IS NOT NULL
  UNION SELECT entity_id, available_at FROM source WHERE available_at IS NOT NULL
),
-- Per instant, the version of each interval known then (t null = the beginning of time).
known AS (
  SELECT i.entity_id, i.t, r.source, r."from", r."to"
  FROM instants AS i
  JOIN source AS r USING (entity_id)
  WHERE r.available_at IS NULL OR r.available_at <= i.t
  QUALIFY row_number() OVER (
    PARTITION BY i.entity_id, i.t, r.universe, r.source, r."from" ORDER BY r.available_at DESC NULLS LAST
  ) = 1
),
inside AS (
  SELECT
    entity_id, t, source,
    bool_or(("from" IS NULL OR "from" <= t) AND ("to" IS NULL OR t IS NULL OR t < "to")) AS inside
  FROM known
  GROUP BY entity_id, t, source
),
evaluated AS (
  SELECT
    i.entity_id, i.t,
    (NOT c.by_index OR coalesce(x.inside, false))
      AND CASE
        WHEN c.by_edgar THEN coalesce(e.inside, false)
        WHEN c.by_bars THEN coalesce(b.inside, false)
        ELSE true
      END AS member
  FROM instants AS i
  JOIN constrained AS c USING (entity_id)
  LEFT JOIN inside AS x ON x.entity_id = i.entity_id AND x.t IS NOT DISTINCT FROM i.t AND x.source = 'membership_csv'
  LEFT JOIN inside AS e ON e.entity_id = i.entity_id AND e.t IS NOT DISTINCT FROM i.t AND e.source = 'edgar_submissions'
  LEFT JOIN inside AS b ON b.entity_id = i.entity_id AND b.t IS NOT DISTINCT FROM i.t AND b.source = 'price_bars'
),
changes AS (
  SELECT entity_id, t, member
  FROM evaluated
  QUALIFY lag(member) OVER (PARTITION BY entity_id ORDER BY t NULLS FIRST) IS DISTINCT FROM member
),
final AS (
  SELECT
    entity_id,
    t AS "from",
    lead(t) OVER (PARTITION BY entity_id ORDER BY t NULLS FIRST) AS "to",
    member
  FROM changes
)
SELECT * FROM final
