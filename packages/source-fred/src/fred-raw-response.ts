/** One raw response the fetch used, for the manifest's raw-input list (URL without the key). */
export interface FredRawResponse {
  url: string;
  sha256: string;
  bytes: number;
  fromCache: boolean;
}
