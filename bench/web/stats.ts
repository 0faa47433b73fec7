export interface Summary {
  median: number;
  /** nearest rank: with fewer than 20 runs, the slowest run */
  p95: number;
  min: number;
  max: number;
}

export function summarize(values: number[]): Summary {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return { median: NaN, p95: NaN, min: NaN, max: NaN };
  const mid = sorted.length / 2;
  const median = Number.isInteger(mid) ? (sorted[mid - 1]! + sorted[mid]!) / 2 : sorted[Math.floor(mid)]!;
  return {
    median,
    p95: sorted[Math.ceil(0.95 * sorted.length) - 1]!,
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
  };
}
