export type Encoding = 'br' | 'gzip' | 'identity';

/** Ours, best first: the order of preference among codings a request weighs the same. */
const OURS: Encoding[] = ['br', 'gzip', 'identity'];

/**
 * The encodings of ours an `Accept-Encoding` header accepts, best first (RFC 9110 §12.5.3): by q-value,
 * then our preference. No header: identity only. `identity` is acceptable unless refused by name or `*;q=0`.
 */
export function acceptedEncodings(header: string | string[] | undefined): Encoding[] {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return ['identity'];
  const weights = new Map<string, number>();
  for (const part of value.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    if (!coding) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    weights.set(coding === 'x-gzip' ? 'gzip' : coding, Number.isFinite(weight) ? weight : 0);
  }
  const star = weights.get('*');
  const weightOf = (encoding: Encoding) =>
    weights.get(encoding) ?? (encoding === 'identity' ? (star === 0 ? 0 : 1) : (star ?? 0));
  return OURS.filter((e) => weightOf(e) > 0).sort((a, b) => weightOf(b) - weightOf(a));
}
