// run-tests: alone (several server processes and a PostgreSQL cluster of its own, with readiness deadlines)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bapi, FapiClient, productApi, testModeEmail, type WireResponse } from '../support/fapi-client.ts';
import {
  privatePostgresUnavailable,
  startPrivatePostgres,
  type PrivatePostgres,
} from '../support/private-postgres.ts';
import { SHARED_SECRET_KEY, spawnServer, stopAll, type ServerProcess } from '../support/processes.ts';
import { testModeSignUp, type WireSession } from '../support/wire-flows.ts';

type Kind = 'token' | 'environment' | 'me' | 'bapi-user';
type Phase = 'up' | 'stopping' | 'down' | 'starting' | 'recovered';

interface Answer {
  kind: Kind;
  /** The phase when the request was sent, and when its answer came. */
  sentIn: Phase;
  answeredIn: Phase;
  /** HTTP status, or 0 when no answer came (connection error or our time bound). */
  status: number;
  code: string | null;
  ms: number;
  error?: string;
}

/** No request may take longer than this, database or not (pg's connection timeout is 5 s). */
const ANSWER_BOUND_MS = 8_000;
/** How soon after PostgreSQL is back every kind of request must succeed again. */
const RECOVERY_BOUND_MS = 10_000;
/** The shortest time PostgreSQL stays away. */
const OUTAGE_MS = 3_000;

function summary(answers: Answer[]): string {
  const counts = new Map<string, { n: number; slowest: number }>();
  for (const a of answers) {
    const key = `${a.sentIn}->${a.answeredIn} ${a.kind} ${a.status} ${a.code ?? ''}${a.error ? ` ${a.error}` : ''}`;
    const seen = counts.get(key) ?? { n: 0, slowest: 0 };
    counts.set(key, { n: seen.n + 1, slowest: Math.max(seen.slowest, a.ms) });
  }
  return [...counts].map(([k, { n, slowest }]) => `  ${n} x ${k} (slowest ${slowest} ms)`).join('\n');
}

describe('PostgreSQL restarted under load', { skip: privatePostgresUnavailable() ?? false }, () => {
  let pg: PrivatePostgres | undefined;
  let server: ServerProcess | undefined;
  let browser: FapiClient;
  let session: WireSession;

  before(async () => {
    pg = await startPrivatePostgres();
    server = await spawnServer({ databaseUrl: pg.url });
    browser = new FapiClient(server.publicUrl);
    session = await testModeSignUp(browser, testModeEmail('outage'));
  });

  after(async () => {
    await stopAll([server]);
    await pg?.destroy();
  });

  test(
    'answers 503 while it is away, never 500 nor a hang, and recovers without a restart',
    {
      timeout: 120_000,
    },
    async (t) => {
      const pid = server!.pid;
      let phase: Phase = 'up';
      let running = true;
      // The newest token: /api/me keeps calling with one minted before the outage (they live 60 s).
      let token = session.jwt;
      const answers: Answer[] = [];

      const send = async (kind: Kind): Promise<void> => {
        const sentIn = phase;
        const started = Date.now();
        let res: WireResponse;
        try {
          const timeoutMs = ANSWER_BOUND_MS;
          if (kind === 'token') {
            res = await browser.post(`/client/sessions/${session.sessionId}/tokens`);
            if (res.status === 200) token = res.body.jwt;
          } else if (kind === 'environment') {
            res = await browser.get('/environment');
          } else if (kind === 'me') {
            res = await productApi(server!.origin, '/me', token, timeoutMs);
          } else {
            res = await bapi(
              server!.origin,
              SHARED_SECRET_KEY,
              'GET',
              `/users/${session.userId}`,
              undefined,
              timeoutMs,
            );
          }
        } catch (err) {
          answers.push({
            kind,
            sentIn,
            answeredIn: phase,
            status: 0,
            code: null,
            ms: Date.now() - started,
            error: String(err),
          });
          return;
        }
        answers.push({
          kind,
          sentIn,
          answeredIn: phase,
          status: res.status,
          code: res.body?.errors?.[0]?.code ?? null,
          ms: Date.now() - started,
        });
      };
      // A few loops, each going through the kinds in turn, with a short pause: a steady light load.
      const kinds: Kind[] = ['token', 'me', 'environment', 'bapi-user'];
      const loops = [0, 1, 2].map(async (offset) => {
        for (let i = offset; running; i++) {
          await send(kinds[i % kinds.length]!);
          await new Promise((r) => setTimeout(r, 50));
        }
      });
      const waitForAnswers = async (filter: (a: Answer) => boolean, count: number, timeoutMs: number) => {
        const deadline = Date.now() + timeoutMs;
        while (answers.filter(filter).length < count) {
          if (!server!.alive()) throw new Error('the server process died');
          if (Date.now() > deadline) throw new Error(`fewer than ${count} answers within ${timeoutMs} ms`);
          await new Promise((r) => setTimeout(r, 50));
        }
      };

      try {
        await waitForAnswers((a) => a.sentIn === 'up', 12, 30_000);
        phase = 'stopping';
        await pg!.stop();
        phase = 'down';
        const downSince = Date.now();
        // Every kind is asked several times while PostgreSQL is away.
        for (const kind of kinds)
          await waitForAnswers(
            (a) => a.kind === kind && a.sentIn === 'down' && a.answeredIn === 'down',
            3,
            30_000,
          );
        // An outage of a few seconds at least, so that every pooled connection has met it.
        await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - downSince))));
        phase = 'starting';
        await pg!.start();
        phase = 'recovered';
        const back = Date.now();
        // Each kind succeeds again within the bound, on the same process.
        for (const kind of kinds) {
          await waitForAnswers(
            (a) => a.kind === kind && a.sentIn === 'recovered' && a.status >= 200 && a.status < 300,
            1,
            RECOVERY_BOUND_MS - (Date.now() - back),
          );
        }
        const recoveredAt = answers.length;
        await waitForAnswers(() => true, recoveredAt + 12, 30_000);
        running = false;
        await Promise.all(loops);

        const show = (list: Answer[]) => JSON.stringify(list.slice(0, 5));
        // Never a 500, never a hang, never a dropped connection, whatever the phase.
        const broken = answers.filter((a) => a.status === 0 || (a.status >= 500 && a.status !== 503));
        assert.deepEqual(broken, [], `answers that were not clean: ${show(broken)}`);
        const slow = answers.filter((a) => a.ms > ANSWER_BOUND_MS);
        assert.deepEqual(slow, [], `answers slower than ${ANSWER_BOUND_MS} ms: ${show(slow)}`);
        // Before: all fine.
        const before = answers.filter((a) => a.sentIn === 'up' && a.answeredIn === 'up');
        assert.ok(before.length >= 12);
        for (const a of before) assert.ok(a.status >= 200 && a.status < 300, JSON.stringify(a));
        // While it is away: what needs the database answers 503 in Clerk's envelope (a token, the Backend
        // API); what does not keeps answering: the environment is held in memory, and GET /api/me verifies
        // the session token with keys held in the process and reads the user from its claims.
        const down = answers.filter((a) => a.sentIn === 'down' && a.answeredIn === 'down');
        for (const a of down) {
          if (a.kind === 'me' || a.kind === 'environment') {
            assert.equal(a.status, 200, JSON.stringify(a));
          } else {
            assert.equal(a.status, 503, JSON.stringify(a));
            assert.equal(a.code, 'service_unavailable', JSON.stringify(a));
          }
        }
        // Once back and settled, everything succeeds.
        const settled = answers.slice(recoveredAt);
        for (const a of settled) assert.ok(a.status >= 200 && a.status < 300, JSON.stringify(a));
        assert.ok(server!.alive(), 'the server process is still running');
        assert.equal(server!.pid, pid);
        t.diagnostic(`answers by phase, kind and status:\n${summary(answers)}`);
      } catch (err) {
        // What each kind of request got in each phase, to tell a slow recovery from a wrong answer.
        throw new Error(
          `${(err as Error).message}\nanswers:\n${summary(answers)}\nserver log:\n${server!.output()}`,
          { cause: err },
        );
      } finally {
        running = false;
        await Promise.all(loops);
      }
    },
  );
});
