import { createIdentity } from '../../src/identity.ts';
import { testConfig } from './harness.ts';

/**
 * A second identity process for webhooks-crash.test.ts: the provider on the PostgreSQL schema the test
 * names, whose delivery worker claims work like any instance's. The test kills it with SIGKILL mid-request.
 */
const identity = await createIdentity(
  testConfig({
    webhooks: { pollMs: 50, timeoutMs: 2000, leaseMs: 3000, retryDelaysMs: [100, 100], batch: 20 },
  }),
  // The database and schema as arguments: `node --import tsx webhook-worker-child.ts <url> <schema>`.
  { url: process.argv[2]!, schema: process.argv[3]! },
);
process.stdout.write(`ready ${identity.publishableKey.slice(0, 8)}\n`);
// Kept alive by the worker's work; the test ends it.
setInterval(() => {}, 1 << 30);
