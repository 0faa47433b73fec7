import { cpus } from 'node:os';
import { decodeJwt, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { hashPassword, verifyPassword } from '../../identity/src/crypto/passwords.ts';

export interface Limits {
  /** RS256 signatures a second (jose, RSA-2048: identity/src/instance/signing-keys.ts). */
  rs256Sign: number;
  rs256Verify: number;
  /** argon2id password checks a second with identity's own hashPassword/verifyPassword parameters. */
  argon2Verify: number;
  /** As the hash records them, e.g. `m=19456,t=2,p=1` (memory KiB, passes, lanes). */
  argon2Parameters: string;
  /** Operations kept in flight while measuring: the libuv threadpool size, which the server has too. */
  inFlight: number;
  cores: number;
}

/**
 * libuv runs jose's WebCrypto RSA jobs and @node-rs/argon2's hashes on its threadpool (UV_THREADPOOL_SIZE,
 * default 4); the product server, started with this process's environment, has the same pool. So the
 * limits are measured with that many operations in flight, as many as the server can run at once.
 */
export function threadpoolSize(): number {
  return Number(process.env.UV_THREADPOOL_SIZE) || 4;
}

/**
 * The physical limits beside the endpoints, measured here with nothing else running: `sampleJwt` is a
 * real session token of the server, whose claims are signed again with a fresh RSA-2048 key (the same
 * size and algorithm as the instance's key), so the work is the same as minting and verifying one.
 */
export async function measureLimits(sampleJwt: string, seconds: number): Promise<Limits> {
  const inFlight = threadpoolSize();
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
  const { iat: _iat, nbf: _nbf, exp: _exp, ...claims } = decodeJwt(sampleJwt);
  const sign = () => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'ins_bench', typ: 'JWT' })
      .setIssuedAt(now)
      .setNotBefore(now - 10)
      .setExpirationTime(now + 60)
      .sign(privateKey);
  };
  const rs256Sign = await opsPerSecond(sign, inFlight, seconds);
  const token = await sign();
  const rs256Verify = await opsPerSecond(() => jwtVerify(token, publicKey), inFlight, seconds);
  const passwordHash = await hashPassword('bench-password-123!');
  const argon2Verify = await opsPerSecond(
    async () => {
      if (!(await verifyPassword(passwordHash, 'bench-password-123!')))
        throw new Error('argon2 check failed');
    },
    inFlight,
    seconds,
  );
  const argon2Parameters = passwordHash.split('$')[3] ?? 'unknown';
  return { rs256Sign, rs256Verify, argon2Verify, argon2Parameters, inFlight, cores: cpus().length };
}

async function opsPerSecond(op: () => Promise<unknown>, inFlight: number, seconds: number): Promise<number> {
  for (let i = 0; i < inFlight; i++) await op(); // warm up
  let done = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < deadline) {
        await op();
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - start) / 1000);
}
