// Bytes and text for signing: UTF-8 encoding and standard base64 on any runtime (atob/btoa, no Buffer).

const encoder = new TextEncoder();

/**
 * Encodes text as UTF-8 bytes.
 *
 * @example
 * utf8('é'); // Uint8Array [0xc3, 0xa9]
 */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text) as Uint8Array<ArrayBuffer>;
}

/**
 * Encodes bytes as standard base64 (with padding).
 *
 * @example
 * encodeBase64(new Uint8Array([1, 2, 3])); // 'AQID'
 */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

/**
 * Decodes canonical standard base64 (padded, unused bits zero, as the Standard Webhooks libraries
 * require), or returns `undefined` for anything else.
 *
 * @example
 * decodeBase64('AQID'); // Uint8Array [1, 2, 3]
 * decodeBase64('AQI'); // undefined: not padded
 * decodeBase64('AQJ='); // undefined: not canonical (AQI= is)
 */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
    return encodeBase64(bytes) === text ? bytes : undefined;
  } catch {
    return undefined;
  }
}
