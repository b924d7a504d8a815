export * from './error-codes.ts';
export * from './fast-zone.ts';
export * from './iso-day.ts';
export * from './period-label.ts';
export * from './strict-dates.ts';
export * from './us-exchange-calendar.ts';
export * from './zoned-micros.ts';
