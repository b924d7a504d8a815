import { adfStatistic } from './adf-statistic.ts';
import { forecastability } from './forecastability.ts';
import { lag1Autocorrelation } from './lag1-autocorrelation.ts';

export interface SequenceCharacteristics {
  /** ADF t statistic, regression 'ct', lag by AIC (SPEC §7); NaN if the design is rank deficient. */
  adfStat: number;
  adfUsedLag: number;
  adfNobs: number;
  /** Lag-1 autocorrelation, FinTSB eq. 2. */
  acf1: number;
  /** 1 − H/log M over the positive Fourier frequencies. */
  forecastability: number;
}

/**
 * The three SPEC §7 sequence characteristics of one segment of returns (computed on the returns
 * themselves, as FinTSB does). Throws InputError (from adfStatistic) for non-finite values or fewer
 * than 8 values; a constant segment yields NaN statistics rather than an error.
 */
export function sequenceCharacteristics(returns: Float64Array): SequenceCharacteristics {
  const adf = adfStatistic(returns, { regression: 'ct', autolag: 'AIC' });
  return {
    adfStat: adf.stat,
    adfUsedLag: adf.usedLag,
    adfNobs: adf.nobs,
    acf1: lag1Autocorrelation(returns),
    forecastability: forecastability(returns),
  };
}
