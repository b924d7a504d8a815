// Regenerates docs/errors.md from each package's src/error-codes.ts (npm run errors).
import { renameSync, writeFileSync } from 'node:fs';
import { ERRORS_DOC, errorCatalogues, errorsDocText } from './errors-doc.ts';

const text = errorsDocText(await errorCatalogues());
writeFileSync(`${ERRORS_DOC}.tmp`, text);
renameSync(`${ERRORS_DOC}.tmp`, ERRORS_DOC);
console.error(`wrote ${ERRORS_DOC}`);
