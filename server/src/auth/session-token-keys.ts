/** A public key as @clerk/backend's verifyJwt takes it: a JWK, or the PEM of the dashboard's "JWT public key". */
export type VerificationKey = JsonWebKey | string;

/** Where the keys that sign the instance's session tokens come from. */
export interface SessionTokenKeys {
  /** The key for a token's `kid`, or null when the instance has none by that id. */
  keyFor(kid: string | undefined): Promise<VerificationKey | null>;
}

/**
 * The instance's PEM public key, given once (`CLERK_JWT_KEY`): verification never calls anyone. As with
 * @clerk/backend's `jwtKey`, the token's `kid` is not consulted: there is one key.
 */
export class PemKey implements SessionTokenKeys {
  constructor(private readonly pem: string) {}

  async keyFor(): Promise<VerificationKey> {
    return this.pem;
  }
}

export interface JwksTiming {
  /** After this long the keys are fetched again, in the background: a key the instance drops stops being accepted. */
  refreshAfterMs: number;
  /** A `kid` we do not know fetches the keys again, at most this often (a token with a made-up kid costs nothing). */
  unknownKidRetryMs: number;
}

/** @clerk/backend keeps fetched keys 5 minutes (MAX_CACHE_LAST_UPDATED_AT_SECONDS); so do we. */
export const DEFAULT_JWKS_TIMING: JwksTiming = { refreshAfterMs: 5 * 60_000, unknownKidRetryMs: 10_000 };

interface Jwk extends JsonWebKey {
  kid?: string;
}

/**
 * The instance's JWKS (the Backend API's `GET /v1/jwks`, with the secret key, as @clerk/backend fetches
 * it), held by this authenticator: fetched on the first token, then only when it is older than
 * `refreshAfterMs` (in the background, the token is verified with the keys held meanwhile) or when a
 * token names a kid not in it (a key rotation; at most once per `unknownKidRetryMs`). Never a call per
 * request. @clerk/backend's own cache is module-wide and fetched again on the request that finds it
 * expired; this one belongs to one instance (tests run several in a process) and never makes a request wait
 * for a refresh.
 */
export class JwksKeys implements SessionTokenKeys {
  private keys = new Map<string, Jwk>();
  private fetchedAt = 0;
  /** The last fetch started, successful or not: what throttles fetching again. */
  private attemptedAt: number | null = null;
  private failure: unknown = null;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly fetchJwks: () => Promise<{ keys?: Jwk[] }>,
    private readonly timing: JwksTiming = DEFAULT_JWKS_TIMING,
    private readonly now: () => number = Date.now,
  ) {}

  async keyFor(kid: string | undefined): Promise<VerificationKey | null> {
    if (!kid) return null;
    const known = this.keys.get(kid);
    if (known) {
      if (this.now() - this.fetchedAt >= this.timing.refreshAfterMs && this.mayFetch())
        void this.refresh().catch(() => {});
      return known;
    }
    // A fetch under way (the first, or a rotation another token noticed) is waited for, never doubled.
    if (this.inFlight || this.mayFetch()) await this.refresh();
    else if (this.keys.size === 0 && this.failure) throw this.failure;
    return this.keys.get(kid) ?? null;
  }

  private mayFetch(): boolean {
    return this.attemptedAt === null || this.now() - this.attemptedAt >= this.timing.unknownKidRetryMs;
  }

  /** One fetch at a time; a failed one keeps the keys held. */
  private refresh(): Promise<void> {
    this.inFlight ??= (async () => {
      this.attemptedAt = this.now();
      try {
        const { keys = [] } = await this.fetchJwks();
        if (keys.length === 0) throw new Error('The JWKS of the instance has no signing key.');
        this.keys = new Map(keys.filter((k) => typeof k.kid === 'string').map((k) => [k.kid!, k]));
        this.fetchedAt = this.now();
        this.failure = null;
      } catch (err) {
        this.failure = err;
        throw err;
      } finally {
        this.inFlight = null;
      }
    })();
    return this.inFlight;
  }
}
