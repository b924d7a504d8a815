export type { ClassifiedResponse, ResponseVerdict } from './classify-status.ts';
export { type Clock, systemClock } from './clock.ts';
export { createHttpClient, type HttpClientOptions } from './create-http-client.ts';
export { HTTP_ERRORS } from './error-codes.ts';
export type { HttpClient } from './http-client.ts';
export { HttpError } from './http-error.ts';
export { stripSecrets } from './strip-secrets.ts';
