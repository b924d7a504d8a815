const DAY = 86_400_000;

/**
 * Whole steps of `frequency` from instant a to instant b (a ≤ b), on UTC calendar dates: D days, BD
 * weekdays in (a, b], W weeks, M/Q/A calendar months/quarters/years. Used only to check that origins are
 * at least H steps apart when the split does not state its origins policy; an unknown frequency counts days.
 */
export function stepsBetween(frequency: string, a: number, b: number): number {
  const da = Math.floor(a / DAY);
  const db = Math.floor(b / DAY);
  const days = db - da;
  switch (frequency) {
    case 'BD': {
      const weeks = Math.floor(days / 7);
      let n = weeks * 5;
      // 1970-01-01 was a Thursday: weekday index (0 = Monday) of day d is (d + 3) mod 7.
      for (let d = da + weeks * 7 + 1; d <= db; d++) if ((((d + 3) % 7) + 7) % 7 < 5) n++;
      return n;
    }
    case 'W':
      return Math.floor(days / 7);
    case 'M':
    case 'Q':
    case 'A': {
      const x = new Date(a);
      const y = new Date(b);
      const months = (y.getUTCFullYear() - x.getUTCFullYear()) * 12 + y.getUTCMonth() - x.getUTCMonth();
      return frequency === 'M'
        ? months
        : frequency === 'Q'
          ? Math.floor(months / 3)
          : Math.floor(months / 12);
    }
    default:
      return days;
  }
}
