/** A signed download URL's query, as the API writes it: the expiry (Unix seconds) and the signature over it. */
export interface SignedDownloadQuery {
  expires: number;
  signature: string;
}

/** As the API writes it: no sign, no leading zero (`0123` names the same second, but is not the URL it signed). */
const EXPIRES = /^[1-9]\d{0,14}$/;
const SIGNATURE = /^[\w-]{1,100}$/;

/** What the route's document says of the two parameters (no examples: only a URL the API signed is valid). */
export const SIGNED_DOWNLOAD_QUERY_DOCS = [
  {
    name: 'expires',
    description: 'The `expires` of the attachment’s `downloadUrl` (Unix seconds)',
    schema: { type: 'integer' as const, format: 'int64', minimum: 1 },
  },
  {
    name: 'signature',
    description: 'The `signature` of the attachment’s `downloadUrl` (base64url)',
    schema: { type: 'string' as const, pattern: SIGNATURE.source },
  },
];

/**
 * The URL's `expires` and `signature` when the query is exactly those two, each once and well formed; otherwise
 * undefined. Such a URL is not one the API signed, and the keyless route refuses it as it refuses a changed one
 * (403): it says nothing about what shape a valid URL has, and no query validation answers 400 here.
 */
export function signedDownloadQueryOf(query: Record<string, unknown>): SignedDownloadQuery | undefined {
  const { expires, signature } = query;
  if (Object.keys(query).length !== 2 || typeof expires !== 'string' || typeof signature !== 'string') return undefined;
  if (!EXPIRES.test(expires) || !SIGNATURE.test(signature)) return undefined;
  return { expires: Number(expires), signature };
}
