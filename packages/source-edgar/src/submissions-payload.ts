import { zodInputError } from '@asof/schema';
import { z } from 'zod';
import { SEC_BODY_HINT } from './sec-body-hint.ts';

/**
 * Column-oriented filing table: `filings.recent` in the main document, and the whole body of an
 * overflow page (`CIK##########-submissions-001.json`). Only the columns asof reads are required;
 * `acceptanceDateTime` is missing for very old filings in some pages, so it is optional.
 */
export const SubmissionsColumns = z.looseObject({
  accessionNumber: z.array(z.string()),
  filingDate: z.array(z.string()),
  reportDate: z.array(z.string().nullable()).optional(),
  acceptanceDateTime: z.array(z.string().nullable()).optional(),
  form: z.array(z.string()),
  /** The Exchange Act (or Securities Act) file number each filing is under: it tells which registration a listing filing concerns. */
  fileNumber: z.array(z.string().nullable()).optional(),
});
export type SubmissionsColumns = z.infer<typeof SubmissionsColumns>;

export const SubmissionsFileRef = z.looseObject({
  name: z
    .string()
    .regex(/^CIK\d{10}-submissions-\d{3}\.json$/, 'name must look like CIK0001318605-submissions-001.json'),
  filingCount: z.number().int().optional(),
  filingFrom: z.string().optional(),
  filingTo: z.string().optional(),
});

/** `submissions/CIK##########.json`. */
export const SubmissionsPayload = z.looseObject({
  cik: z.union([z.string().regex(/^\d{1,10}$/), z.number().int()]),
  name: z.string(),
  tickers: z.array(z.string()).optional(),
  fiscalYearEnd: z
    .string()
    .regex(/^\d{4}$/, 'fiscalYearEnd must be MMDD')
    .nullable()
    .optional(),
  filings: z.looseObject({
    recent: SubmissionsColumns,
    files: z.array(SubmissionsFileRef).default([]),
  }),
});
export type SubmissionsPayload = z.infer<typeof SubmissionsPayload>;

export function parseSubmissionsPayload(json: unknown, where: string): SubmissionsPayload {
  const r = SubmissionsPayload.safeParse(json);
  if (!r.success)
    throw zodInputError('EDGAR_BAD_SUBMISSIONS', where, r.error, {
      what: 'SEC submissions JSON',
      hint: SEC_BODY_HINT,
    });
  return r.data;
}

/** An overflow page is a bare column object: no cik/name/filings wrapper. */
export function parseSubmissionsPage(json: unknown, where: string): SubmissionsColumns {
  const r = SubmissionsColumns.safeParse(json);
  if (!r.success)
    throw zodInputError('EDGAR_BAD_SUBMISSIONS_PAGE', where, r.error, {
      what: 'SEC submissions overflow page',
      hint: SEC_BODY_HINT,
    });
  return r.data;
}
