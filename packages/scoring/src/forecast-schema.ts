import { z } from 'zod';
import { instantOf } from './parse-instant.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: names must not contain control characters
const PRINTABLE = /^[^\u0000-\u001f\u007f-\u009f]+$/;
const NO_CONTROL = 'contains a control character (U+0000–U+001F, U+007F–U+009F); use printable characters';
// A date, or a time of day with a zone (Z or ±hh:mm); instantOf also checks the day exists in its month.
const ISO_ORIGIN = /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}(:?\d{2})?))?$/;
// A period label as the split's origin_label writes it (a day label is a date, matched above).
const LABEL_ORIGIN = /^(\d{4}-(0[1-9]|1[0-2])|\d{4}Q[1-4]|(FY)?\d{4})$/;

/**
 * One row of a forecasts file (CSV or Parquet). Quantile columns are `q<level>` (e.g. q0.05 … q0.95) and
 * sample columns `s1` … `sN`; a file uses one kind or neither. A model forecasts any subset of the split's
 * (series_id, origin) pairs, each with every step 1…H.
 */
export const ForecastFileRow = z
  .object({
    model: z
      .string()
      .min(1)
      .regex(PRINTABLE, NO_CONTROL)
      .describe(
        "model name (no control characters); 'random_walk', 'drift', 'seasonal_naive' name the scorer's own baselines: a submitted model with such a name must equal that baseline (e.g. the output of asof baselines), else it is refused",
      ),
    series_id: z
      .string()
      .min(1)
      .regex(PRINTABLE, NO_CONTROL)
      .describe("an evaluation series of the split's task set; no control characters"),
    origin: z
      .union([
        z.string().regex(LABEL_ORIGIN),
        z
          .string()
          .regex(
            ISO_ORIGIN,
            'expected a period label (2019-12, 2019Q4, FY2019), an ISO date (2024-01-31) or an instant with a zone (2024-01-31T00:00:00Z)',
          )
          .refine((t) => typeof instantOf(t) === 'number', {
            error: (iss) =>
              `${JSON.stringify(iss.input)} is not a calendar date (e.g. 2020-04-31); write a real day`,
          }),
      ])
      .describe(
        "an origin of that series in the split: its period label (the split's origins.parquet origin_label: 2019-12, 2019Q4, FY2019, 2020-03-04), or its instant as an ISO date (00:00 UTC) or an instant with a zone (Z or ±hh:mm); the day must exist in its month. In a Parquet file the origin may also be a TIMESTAMP: the forecasts files asof writes (asof baselines, asof run) store it as the split's origins.parquet does, TIMESTAMP WITH TIME ZONE (microseconds, UTC)",
      ),
    step: z.number().int().min(1).describe('1 … H steps after the origin'),
    value: z
      .number()
      .describe(
        'point forecast ŷ_{o+step} (the median for probabilistic models); finite, and > 0 (as are its quantiles and samples) for a series positive throughout the split, which is scored in log returns',
      ),
  })
  .catchall(z.number().describe('q<level> quantile (0 < level < 1) or s<k> sample; finite'))
  .describe(
    'One row of an asof forecasts file (CSV or Parquet): the forecast of one model for one step of one origin',
  );
export type ForecastFileRow = z.infer<typeof ForecastFileRow>;

/** JSON Schema of one forecasts row (the lead writes it to schemas/forecast.schema.json). */
export function forecastJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ForecastFileRow, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  // zod emits catchall as additionalProperties; name the allowed extra columns precisely instead.
  const { additionalProperties, ...rest } = schema;
  return {
    $id: 'https://asof.dev/schemas/forecast.schema.json',
    ...rest,
    patternProperties: { '^q0?\\.[0-9]+$': additionalProperties, '^s[1-9][0-9]*$': additionalProperties },
    additionalProperties: false,
  };
}
