export interface HttpResponse {
  /** Stripped URL (secret params removed). */
  url: string;
  status: number;
  /** Decoded (decompressed) body as UTF-8 text. */
  text: string;
  /** sha256 of the decoded body bytes, as stored in the cache. */
  sha256: string;
  bytes: number;
  fromCache: boolean;
  contentType: string | null;
}

export interface HttpRequestInit {
  headers?: Record<string, string | undefined>;
  /** Overrides the cache key (default: method + stripped URL). Scrubbed of secrets before use. */
  cacheKey?: string;
}

export interface HttpStats {
  /** Network attempts started (retries included; cache hits excluded). */
  requests: number;
  retries: number;
  cacheHits: number;
  /** Network attempts per hostname. */
  byHost: Record<string, number>;
}

export interface HttpClient {
  get(url: string, init?: HttpRequestInit): Promise<HttpResponse>;
  /** Like get, but a body that is not valid JSON counts as a corrupt transfer (retried, never cached). */
  getJson<T = unknown>(url: string, init?: HttpRequestInit): Promise<HttpResponse & { json: T }>;
  stats(): HttpStats;
  close(): Promise<void>;
}
