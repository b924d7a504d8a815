import type { Dispatcher } from 'undici';

export interface LazyTransport {
  load(): Promise<{ request: typeof import('undici').request; dispatcher: Dispatcher }>;
  /** Closes the private Agent, if one was made; a dispatcher the caller passed stays open. */
  close(): Promise<void>;
}

/**
 * undici is loaded at the first request, not at start: most commands never fetch, and its import costs every
 * one of them ~0.1 s. The private Agent is created then too.
 */
export function createLazyTransport(dispatcher: Dispatcher | undefined): LazyTransport {
  let ownDispatcher: Dispatcher | undefined;
  return {
    async load() {
      const undici = await import('undici');
      if (dispatcher === undefined && ownDispatcher === undefined)
        ownDispatcher = new undici.Agent({ keepAliveTimeout: 10_000 });
      return { request: undici.request, dispatcher: dispatcher ?? (ownDispatcher as Dispatcher) };
    },
    async close() {
      await ownDispatcher?.close();
    },
  };
}
