import type { AnyFapiRoute, FapiMethod } from './context.ts';

interface Compiled<R> {
  route: R;
  segments: string[];
}

/** Matches FAPI paths after method tunnelling; `:name` segments become params. */
export class FapiRouter<R extends { method: FapiMethod; path: string } = AnyFapiRoute> {
  private readonly compiled: Compiled<R>[];

  constructor(routes: readonly R[]) {
    this.compiled = routes.map((route) => ({ route, segments: route.path.split('/').filter(Boolean) }));
  }

  match(
    method: FapiMethod,
    path: string,
  ): { route: R; params: Record<string, string> } | 'method_not_allowed' | null {
    const parts = path.split('/').filter(Boolean);
    let pathMatched = false;
    for (const { route, segments } of this.compiled) {
      if (segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const ok = segments.every((seg, i) => {
        const part = parts[i]!;
        if (seg.startsWith(':')) {
          // Fastify has already decoded the path once.
          params[seg.slice(1)] = part;
          return true;
        }
        return seg === part;
      });
      if (!ok) continue;
      pathMatched = true;
      if (route.method === method) return { route, params };
    }
    return pathMatched ? 'method_not_allowed' : null;
  }
}
