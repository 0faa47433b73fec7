import autocannon from 'autocannon';

export interface BenchRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/__clerk/v1/client?...`. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LatencyStats {
  /** Successful (2xx) responses per second. */
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  ok: number;
}

export interface LoadResult extends LatencyStats {
  /** Non-2xx responses, socket errors and timeouts together. */
  errors: number;
  /** Every status code seen, with its count, plus `socket` errors and `timeout`s when any. */
  statusCounts: Record<string, number>;
  seconds: number;
  /** One entry per request of the sequence (a scenario of several requests: document + assets, …). */
  perRequest: LatencyStats[];
}

/**
 * Runs autocannon against `origin` with `connections` connections for `seconds`. Each connection sends
 * `requests` in order, again and again. Latencies are kept per request of the sequence (which one was
 * answered is read off the connection's request iterator; autocannon does not pipeline by default), and
 * the percentiles are exact: autocannon's own summary has p90 and p97.5 but no p95.
 */
export async function runLoad(opts: {
  origin: string;
  requests: BenchRequest[];
  connections: number;
  seconds: number;
}): Promise<LoadResult> {
  const n = opts.requests.length;
  const latencies: number[][] = opts.requests.map(() => []);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: opts.origin,
        connections: opts.connections,
        duration: opts.seconds,
        timeout: 30,
        requests: opts.requests.map((r) => ({
          method: r.method,
          path: r.path,
          headers: r.headers ?? {},
          ...(r.body !== undefined ? { body: r.body } : {}),
        })),
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (client, statusCode, _bytes, responseTime) => {
      // Emitted before the client moves on, so its iterator still points at the request just answered.
      const index = (client as unknown as ClientWithIterator).requestIterator?.currentRequestIndex ?? 0;
      if (statusCode >= 200 && statusCode < 300) latencies[index % n]!.push(responseTime);
    });
  });

  const seconds = result.duration;
  const statusCounts: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {}))
    statusCounts[code] = count ?? 0;
  const socketErrors = result.errors - result.timeouts;
  if (socketErrors > 0) statusCounts.socket = socketErrors;
  if (result.timeouts > 0) statusCounts.timeout = result.timeouts;
  const perRequest = latencies.map((l) => statsOf(l, seconds));
  return {
    ...statsOf(latencies.flat(), seconds),
    errors: result.non2xx + result.errors,
    statusCounts,
    seconds,
    perRequest,
  };
}

/** autocannon's client internals (lib/httpClient.js, lib/requestIterator.js in 8.0.0), not in its types. */
interface ClientWithIterator {
  requestIterator?: { currentRequestIndex: number };
}

function statsOf(latencies: number[], seconds: number): LatencyStats {
  const sorted = Float64Array.from(latencies).sort();
  const pct = (p: number) =>
    sorted.length === 0
      ? NaN
      : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return {
    rps: seconds > 0 ? sorted.length / seconds : 0,
    p50: pct(50),
    p95: pct(95),
    p99: pct(99),
    ok: sorted.length,
  };
}
