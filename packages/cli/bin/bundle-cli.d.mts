/** What a bundle is built from; paths are relative to `root`. */
export interface BundleOptions {
  root: string;
  cacheDir: string;
  entries: Record<string, string>;
  /** Each worker's source is bundled as its own entry, and `new URL('<shim>', import.meta.url)` names it. */
  workers: Record<string, { shim: string; source: string }>;
}
export declare const CLI_BUNDLE: BundleOptions;
export declare function freshBundle(options?: BundleOptions): string | null;
export declare function bundleCli(options?: BundleOptions): Promise<string | null>;
export declare function bundledEntry(options?: BundleOptions): Promise<string | null>;
export declare function importBundle(url: string, fallback: () => Promise<void>): Promise<void>;
