import { generateKeyPairSync, sign } from 'node:crypto';
import { request } from 'node:http';
import { createServer, type Server } from 'node:https';

/** The loopback address the browser is told `accounts.<host>` lives at (the product listens on 127.0.0.1). */
const PORTAL_ADDRESS = '127.0.0.2';

export interface AccountsPortal {
  /** Chromium flags: the portal's host resolves to the TLS front below, whose test certificate is accepted. */
  browserArgs: string[];
  stop(): Promise<void>;
}

/**
 * What a deployment puts in front of the product for the popup flow (README, "Popup sign-in"): TLS for
 * clerk-js's Account Portal origin (`https://accounts.<host>`, or `https://<name>.accounts.dev` with
 * development keys), passing every request to the product server with its Host. Chromium reaches it by
 * real navigations and redirects (Playwright's routing does not see the targets of redirects, and the
 * provider's callback redirects there).
 */
export async function startAccountsPortal(
  portalOrigin: string,
  productPort: number,
): Promise<AccountsPortal> {
  const portal = new URL(portalOrigin);
  const { key, cert } = selfSignedCertificate(portal.hostname);
  const server: Server = createServer({ key, cert }, (req, res) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: productPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: req.headers.host ?? portal.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(portal.port || 443), PORTAL_ADDRESS, resolve);
  });
  return {
    browserArgs: [
      `--host-resolver-rules=MAP ${portal.hostname} ${PORTAL_ADDRESS}`,
      '--ignore-certificate-errors',
    ],
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A throwaway self-signed certificate (ECDSA P-256) for `host`, built with node:crypto alone. */
function selfSignedCertificate(host: string): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const length = (n: number) =>
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  const tlv = (tag: number, ...parts: Buffer[]) => {
    const body = Buffer.concat(parts);
    return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
  };
  const sequence = (...parts: Buffer[]) => tlv(0x30, ...parts);
  const oid = (hex: string) => tlv(0x06, Buffer.from(hex, 'hex'));
  const utcTime = (d: Date) =>
    tlv(0x17, Buffer.from(`${d.toISOString().replace(/[-:T]/g, '').slice(2, 14)}Z`));
  const ecdsaWithSha256 = sequence(oid('2a8648ce3d040302'));
  const name = sequence(tlv(0x31, sequence(oid('550403'), tlv(0x0c, Buffer.from(host)))));
  const now = Date.now();
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // v3
    tlv(0x02, Buffer.from([1])), // serial
    ecdsaWithSha256,
    name,
    sequence(utcTime(new Date(now - 3600_000)), utcTime(new Date(now + 24 * 3600_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, ecdsaWithSha256, tlv(0x03, Buffer.from([0]), signature));
  const cert = `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, cert };
}
