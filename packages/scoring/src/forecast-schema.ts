import { z } from 'zod';

/**
 * One row of a forecasts file (CSV or Parquet). Quantile columns are `q<level>` (e.g. q0.05 … q0.95) and
 * sample columns `s1` … `sN`; a file uses one kind or neither. Every model forecasts steps 1…H of every
 * (series_id, origin) of the split.
 */
export const ForecastFileRow = z
  .object({
    model: z
      .string()
      .min(1)
      .describe(
        "model name; 'random_walk', 'drift', 'seasonal_naive' name the scorer's own baselines: a submitted model with such a name must equal that baseline (e.g. the output of asof baselines), else it is refused",
      ),
    series_id: z.string().min(1).describe("an evaluation series of the split's task set"),
    origin: z.string().describe('an origin of that series in the split (ISO instant or date)'),
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
