import type { z } from 'zod';
import {
  type FredObservation,
  FredObservationsResponse,
  FredReleaseDatesResponse,
  FredVintageDatesResponse,
} from './fred-payload.ts';
import type { FredRawResponse } from './fred-raw-response.ts';

export const REALTIME_START_ALL = '1776-07-04';
export const REALTIME_END_ALL = '9999-12-31';

/** FredClient.getJson: one validated FRED request. */
export type FredGetJson = <S extends z.ZodType>(
  path: string,
  params: Record<string, string>,
  schema: S,
  what: string,
  seriesId?: string,
) => Promise<{ json: z.infer<S>; raw: FredRawResponse }>;

/**
 * Every row of a paged FRED list, one request after another from offset 0 until `count` rows (or an empty
 * page) came back; each response is appended to `responses` in request order.
 */
export async function fetchFredPages<T>(
  fetchPage: (offset: number) => Promise<{ rows: readonly T[]; count: number; raw: FredRawResponse }>,
  responses: FredRawResponse[],
): Promise<T[]> {
  const rows: T[] = [];
  for (let offset = 0; ; ) {
    const page = await fetchPage(offset);
    responses.push(page.raw);
    rows.push(...page.rows);
    offset += page.rows.length;
    if (page.rows.length === 0 || offset >= page.count) break;
  }
  return rows;
}

export function fetchVintageDates(
  getJson: FredGetJson,
  fredId: string,
  responses: FredRawResponse[],
): Promise<string[]> {
  return fetchFredPages(async (offset) => {
    const { json, raw } = await getJson(
      'series/vintagedates',
      {
        series_id: fredId,
        realtime_start: REALTIME_START_ALL,
        realtime_end: REALTIME_END_ALL,
        limit: '10000',
        offset: String(offset),
      },
      FredVintageDatesResponse,
      'series/vintagedates',
      fredId,
    );
    return { rows: json.vintage_dates, count: json.count, raw };
  }, responses);
}

/** Every observation of one realtime window, `pageLimit` rows a request. */
export function fetchObservationWindow(
  getJson: FredGetJson,
  fredId: string,
  window: { realtime_start: string; realtime_end: string },
  pageLimit: number,
  responses: FredRawResponse[],
): Promise<FredObservation[]> {
  return fetchFredPages(async (offset) => {
    const { json, raw } = await getJson(
      'series/observations',
      {
        series_id: fredId,
        realtime_start: window.realtime_start,
        realtime_end: window.realtime_end,
        limit: String(pageLimit),
        offset: String(offset),
      },
      FredObservationsResponse,
      'series/observations',
      fredId,
    );
    return { rows: json.observations, count: json.count, raw };
  }, responses);
}

/** The release calendar: distinct dates, ascending. */
export async function fetchReleaseDates(
  getJson: FredGetJson,
  releaseId: number,
): Promise<{ dates: string[]; responses: FredRawResponse[] }> {
  const responses: FredRawResponse[] = [];
  const dates = await fetchFredPages(async (offset) => {
    const { json, raw } = await getJson(
      'release/dates',
      {
        release_id: String(releaseId),
        realtime_start: REALTIME_START_ALL,
        realtime_end: REALTIME_END_ALL,
        include_release_dates_with_no_data: 'false',
        sort_order: 'asc',
        limit: '10000',
        offset: String(offset),
      },
      FredReleaseDatesResponse,
      `release/dates of release ${releaseId}`,
    );
    return { rows: json.release_dates.map((d) => d.date), count: json.count, raw };
  }, responses);
  return { dates: [...new Set(dates)].sort(), responses };
}
