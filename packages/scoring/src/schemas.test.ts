import { describe, expect, it } from 'vitest';
import { ForecastFileRow, forecastJsonSchema } from './forecast-schema.ts';
import { resultsJsonSchema } from './results-schema.ts';

describe('JSON schemas', () => {
  it('forecastJsonSchema names the required columns and allows only q<level>/s<k> extras', () => {
    const s = forecastJsonSchema() as {
      required: string[];
      patternProperties: Record<string, unknown>;
      additionalProperties: boolean;
      $id: string;
    };
    expect(s.$id).toBe('https://asof.dev/schemas/forecast.schema.json');
    expect([...s.required].sort()).toEqual(['model', 'origin', 'series_id', 'step', 'value']);
    expect(Object.keys(s.patternProperties)).toEqual(['^q0?\\.[0-9]+$', '^s[1-9][0-9]*$']);
    expect(s.additionalProperties).toBe(false);
    expect(
      ForecastFileRow.safeParse({
        model: 'm',
        series_id: 'a',
        origin: '2024-01-02',
        step: 1,
        value: 1,
        'q0.5': 1,
      }).success,
    ).toBe(true);
    expect(
      ForecastFileRow.safeParse({ model: 'm', series_id: 'a', origin: '2024-01-02', step: 0, value: 1 })
        .success,
    ).toBe(false);
  });

  it('ForecastFileRow refuses control characters in names and origins that are not real zoned instants', () => {
    const row = { model: 'm', series_id: 'a', origin: '2024-01-02T00:00:00Z', step: 1, value: 1 };
    expect(ForecastFileRow.safeParse(row).success).toBe(true);
    for (const bad of [
      { model: 'm\u001b[31m' },
      { series_id: 'a\u0085' },
      { origin: '2020-04-31' },
      { origin: '2020-02-30T00:00:00Z' },
      { origin: '2024-01-02T00:00:00' },
      { origin: '2019-13' },
      { origin: '2019Q5' },
      { origin: 'FY19' },
    ]) {
      expect(ForecastFileRow.safeParse({ ...row, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
    // Period labels as the split's origin_label writes them.
    for (const origin of ['2019-12', '2019Q4', 'FY2019', '2019', '2020-03-04'])
      expect(ForecastFileRow.safeParse({ ...row, origin }).success, origin).toBe(true);
  });

  it('resultsJsonSchema is a JSON Schema of the results document', () => {
    const s = resultsJsonSchema() as { type: string; required: string[]; $id: string };
    expect(s.$id).toBe('https://asof.dev/schemas/results.schema.json');
    expect(s.type).toBe('object');
    expect(s.required).toEqual(
      expect.arrayContaining([
        'dataset_id',
        'scorer',
        'config_sha256',
        'values',
        'verdicts',
        'ranks',
        'baselines_win',
        'comparison',
        'same_points',
      ]),
    );
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });
});
