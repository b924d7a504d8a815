import { InputError } from '@asof/schema';

export const ORIGINS_POLICIES = ['all', 'non_overlapping'] as const;
export type OriginsPolicy = (typeof ORIGINS_POLICIES)[number];

/**
 * A pooled Diebold–Mariano test assumes forecast errors close to independent across origins; with origins
 * closer than the horizon, consecutive H-step targets share steps and the errors are autocorrelated, so the
 * test's variance is wrong (Tycheon §6). The rule, also written into the split manifest's `config.dm_valid`
 * for the scorer: DM needs `non_overlapping` origins (or a horizon of one step, where `all` cannot overlap).
 */
export function isDmValid(policy: OriginsPolicy, maxHorizonSteps = Number.POSITIVE_INFINITY): boolean {
  return policy === 'non_overlapping' || maxHorizonSteps <= 1;
}

/** Throws InputError DM_NEEDS_NON_OVERLAPPING when a DM test is requested on overlapping origins. */
export function checkDmCompatible(policy: OriginsPolicy, dm: boolean, maxHorizonSteps?: number): void {
  if (!dm || isDmValid(policy, maxHorizonSteps)) return;
  throw new InputError(
    'DM_NEEDS_NON_OVERLAPPING',
    `a Diebold–Mariano test was requested (--dm) with --origins ${policy}: origins closer than the horizon H give overlapping H-step targets, so forecast errors at consecutive origins share steps, are autocorrelated, and the pooled DM statistic is invalid; use --origins non_overlapping (origins at least H steps apart) or drop --dm`,
    { context: { origins: policy, dm } },
  );
}
