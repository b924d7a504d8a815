export type { Clock } from './clock.ts';
export { systemClock } from './clock.ts';
export type {
  HostPolicy,
  HttpClient,
  HttpClientOptions,
  HttpRequestInit,
  HttpResponse,
  HttpStats,
} from './create-http-client.ts';
export { createHttpClient } from './create-http-client.ts';
export * from './error-codes.ts';
export { HttpError, OfflineCacheMissError } from './http-error.ts';
export type { CacheEntry } from './response-cache.ts';
export { SlidingWindowLimiter } from './sliding-window-limiter.ts';
export type { SecretOptions } from './strip-secrets.ts';
export { stripSecrets, stripUrl } from './strip-secrets.ts';
