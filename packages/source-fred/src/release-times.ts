import { endOfDayMicros, type Micros, zonedMicros } from '@asof/calendar';

export interface ReleaseTime {
  /** FRED release name. */
  name: string;
  /** Local wall-clock time of publication, HH:MM. */
  time: string;
  timeZone: string;
  /** true when the id ↔ name pair was checked against a recorded FRED response (../shared/fixtures/real/fred). */
  verified: boolean;
  note?: string;
}

/**
 * FRED release id → the time of day its values go public (SPEC §4). ALFRED's `realtime_start` gives the
 * date; this table gives the hour. Times are the agencies' published schedules. Ids 10 and 53 are checked
 * against recorded FRED responses (fred_api_release_10.json, fred_api_series_release_GDP.json); the others
 * are FRED's long-standing ids, not checked against a recording.
 */
export const RELEASE_TIMES: Readonly<Record<number, ReleaseTime>> = {
  10: { name: 'Consumer Price Index', time: '08:30', timeZone: 'America/New_York', verified: true },
  53: { name: 'Gross Domestic Product', time: '08:30', timeZone: 'America/New_York', verified: true },
  50: { name: 'Employment Situation', time: '08:30', timeZone: 'America/New_York', verified: false },
  46: { name: 'Producer Price Index', time: '08:30', timeZone: 'America/New_York', verified: false },
  54: { name: 'Personal Income and Outlays', time: '08:30', timeZone: 'America/New_York', verified: false },
  9: {
    name: 'Advance Monthly Sales for Retail and Food Services',
    time: '08:30',
    timeZone: 'America/New_York',
    verified: false,
  },
  97: { name: 'New Residential Construction', time: '08:30', timeZone: 'America/New_York', verified: false },
  180: {
    name: 'Unemployment Insurance Weekly Claims',
    time: '08:30',
    timeZone: 'America/New_York',
    verified: false,
  },
  13: {
    name: 'G.17 Industrial Production and Capacity Utilization',
    time: '09:15',
    timeZone: 'America/New_York',
    verified: false,
  },
  21: { name: 'H.6 Money Stock Measures', time: '13:00', timeZone: 'America/New_York', verified: false },
  20: {
    name: 'H.4.1 Factors Affecting Reserve Balances',
    time: '16:30',
    timeZone: 'America/New_York',
    verified: false,
  },
  18: {
    name: 'H.15 Selected Interest Rates',
    time: '16:15',
    timeZone: 'America/New_York',
    verified: false,
    note: 'daily rates appear the business day after the observation; realtime_start already is that day',
  },
  17: { name: 'H.10 Foreign Exchange Rates', time: '16:15', timeZone: 'America/New_York', verified: false },
};

/**
 * Release times known by FRED release name only (the taxonomy catalog names releases; ids not checked).
 * Agencies' published schedules; releases of market data (ICE BofA, stock indexes, CBOE, IMF, Coinbase) have
 * no fixed publication time and fall back to 23:59:59 ET.
 */
export const RELEASE_TIMES_BY_NAME: Readonly<Record<string, Omit<ReleaseTime, 'name'>>> = {
  'Manufacturing and Trade Inventories and Sales': {
    time: '10:00',
    timeZone: 'America/New_York',
    verified: false,
  },
  'Job Openings and Labor Turnover Survey': { time: '10:00', timeZone: 'America/New_York', verified: false },
  'G.19 Consumer Credit': { time: '15:00', timeZone: 'America/New_York', verified: false },
  'H.8 Assets and Liabilities of Commercial Banks': {
    time: '16:15',
    timeZone: 'America/New_York',
    verified: false,
  },
  'New Residential Sales': { time: '10:00', timeZone: 'America/New_York', verified: false },
  'Productivity and Costs': { time: '08:30', timeZone: 'America/New_York', verified: false },
  'U.S. International Trade in Goods and Services': {
    time: '08:30',
    timeZone: 'America/New_York',
    verified: false,
  },
  'U.S. International Transactions': { time: '08:30', timeZone: 'America/New_York', verified: false },
  'Import and Export Price Indexes': { time: '08:30', timeZone: 'America/New_York', verified: false },
  'Existing Home Sales': { time: '10:00', timeZone: 'America/New_York', verified: false },
  "Manufacturers' Shipments, Inventories, and Orders": {
    time: '10:00',
    timeZone: 'America/New_York',
    verified: false,
  },
  'Primary Mortgage Market Survey': { time: '12:00', timeZone: 'America/New_York', verified: false },
  'Weekly Petroleum Status Report': { time: '10:30', timeZone: 'America/New_York', verified: false },
  'Chicago Fed National Activity Index': { time: '08:30', timeZone: 'America/Chicago', verified: false },
  'Chicago Fed National Financial Conditions Index': {
    time: '08:30',
    timeZone: 'America/Chicago',
    verified: false,
  },
  'S&P CoreLogic Case-Shiller Home Price Indices': {
    time: '09:00',
    timeZone: 'America/New_York',
    verified: false,
  },
  'FHFA House Price Indexes': { time: '09:00', timeZone: 'America/New_York', verified: false },
  'Surveys of Consumers': { time: '10:00', timeZone: 'America/New_York', verified: false },
  'Monthly Treasury Statement': { time: '14:00', timeZone: 'America/New_York', verified: false },
  'Treasury International Capital': { time: '16:00', timeZone: 'America/New_York', verified: false },
  'Industrial Production and Capacity Utilization': {
    time: '09:15',
    timeZone: 'America/New_York',
    verified: false,
  },
  'Supplemental Estimates, Motor Vehicles': { time: '08:30', timeZone: 'America/New_York', verified: false },
};

/** A release as far as it is known: its FRED id and/or its name. */
export interface FredReleaseRef {
  id?: number;
  name?: string;
}

/** The publication time of a release: by id in `table`, else by name in `table` or RELEASE_TIMES_BY_NAME. */
export function findReleaseTime(
  release: FredReleaseRef | number | undefined,
  table: Readonly<Record<number, ReleaseTime>> = RELEASE_TIMES,
): Omit<ReleaseTime, 'name'> | undefined {
  const ref = typeof release === 'number' ? { id: release } : release;
  if (ref === undefined) return undefined;
  if (ref.id !== undefined && table[ref.id] !== undefined) return table[ref.id];
  if (ref.name === undefined) return undefined;
  const name = ref.name.trim().toLowerCase();
  const byId = Object.values(table).find((r) => r.name.toLowerCase() === name);
  if (byId !== undefined) return byId;
  const hit = Object.entries(RELEASE_TIMES_BY_NAME).find(([n]) => n.toLowerCase() === name);
  return hit?.[1];
}

/**
 * FRED series id → release id for the series this project ingests by default. The live path reads the
 * release from `fred/series/release`; this table serves raw directories without that response.
 */
export const SERIES_RELEASE_IDS: Readonly<Record<string, number>> = {
  GDP: 53,
  GDPC1: 53,
  A191RL1Q225SBEA: 53,
  CPIAUCSL: 10,
  CPILFESL: 10,
  CPIAUCNS: 10,
  PAYEMS: 50,
  UNRATE: 50,
  CIVPART: 50,
  CES0500000003: 50,
  PPIACO: 46,
  PCEPI: 54,
  PCE: 54,
  RSAFS: 9,
  HOUST: 97,
  ICSA: 180,
  INDPRO: 13,
  M2SL: 21,
  DGS10: 18,
  DGS2: 18,
  DGS3MO: 18,
  DGS1: 18,
  DGS5: 18,
  DGS30: 18,
  DFF: 18,
  FEDFUNDS: 18,
  GS10: 18,
  WGS10YR: 18,
  DTB3: 18,
  T10Y2Y: 18,
  DEXUSEU: 17,
  DEXJPUS: 17,
};

/**
 * When a value first dated `date` (ALFRED realtime_start, or a release date) became public: that date at the
 * release's time of day, or 23:59:59.999999 America/New_York when the release time is unknown (SPEC §4:
 * the latest instant of the day is the safe choice).
 */
export function releaseAvailableAt(
  date: string,
  release: FredReleaseRef | number | undefined,
  table: Readonly<Record<number, ReleaseTime>> = RELEASE_TIMES,
): Micros {
  const entry = findReleaseTime(release, table);
  if (entry === undefined) return cachedZoned(date, END_OF_DAY, 'America/New_York');
  return cachedZoned(date, entry.time, entry.timeZone);
}

const END_OF_DAY = '23:59:59.999999';
const zonedCache = new Map<string, Micros>();

/** Time-zone conversion is the hot spot of a large ingest (Intl per call); the same dates recur constantly. */
export function cachedZoned(date: string, time: string, timeZone: string): Micros {
  const key = `${date}|${time}|${timeZone}`;
  let v = zonedCache.get(key);
  if (v === undefined) {
    v = time === END_OF_DAY ? endOfDayMicros(date, timeZone) : zonedMicros(date, time, timeZone);
    if (zonedCache.size > 200_000) zonedCache.clear();
    zonedCache.set(key, v);
  }
  return v;
}
