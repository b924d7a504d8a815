export { CALENDAR_ERRORS } from './error-codes.ts';
export { isKnownTimeZone, localDateOfMicros, wallTimeToUtcMs } from './fast-zone.ts';
export { addIsoDays, dayNumberToIso, isoDayNumber, isoWeekday } from './iso-day.ts';
export { type CutoffWindow, labelWindow } from './label-window.ts';
export { periodLabel } from './period-label.ts';
export {
  badDateMessage,
  badInstantMessage,
  checkIsoDate,
  checkIsoInstant,
  isIsoDate,
  isoDateProblem,
} from './strict-dates.ts';
export {
  isUsTradingDay,
  nextUsTradingDay,
  usEarlyCloses,
  usNonTradingReason,
  usSessionClose,
  usTradingDays,
} from './us-exchange-calendar.ts';
export {
  endOfDayMicros,
  isoToMicros,
  type Micros,
  microsToIso,
  parseIsoDate,
  zonedMicros,
} from './zoned-micros.ts';
