import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

/**
 * Undo Content-Encoding. zlib throws on a truncated or corrupt stream ("unexpected end of file"), which the
 * client treats like any other broken transfer: retry, then fail naming the URL.
 */
export function decodeBody(raw: Uint8Array, contentEncoding: string | undefined): Buffer {
  const buffer = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const encodings = (contentEncoding ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'identity');
  let out = buffer;
  // Encodings are listed in the order applied, so undo them from last to first.
  for (const encoding of encodings.reverse()) {
    if (encoding === 'gzip' || encoding === 'x-gzip') out = gunzipSync(out);
    else if (encoding === 'deflate') {
      // Some servers send raw deflate despite RFC 9110 saying zlib-wrapped.
      try {
        out = inflateSync(out);
      } catch {
        out = inflateRawSync(out);
      }
    } else if (encoding === 'br') out = brotliDecompressSync(out);
    else throw new Error(`unsupported Content-Encoding "${encoding}"`);
  }
  return out;
}
