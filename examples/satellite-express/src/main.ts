import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createSatelliteApp } from './app.ts';

/**
 * Runs the example by hand (README.md): `PRODUCT_URL`, `SATELLITE_URL` (this application's origin, declared
 * as a satellite domain), `CLERK_PUBLISHABLE_KEY`, and the secret key as `CLERK_SECRET_KEY` or the file the
 * product generated (`SECRET_KEY_FILE`, default the repository's `.data/identity-secret-key`).
 */
const env = process.env;
const productUrl = env.PRODUCT_URL ?? 'http://localhost:3000';
const ownUrl = env.SATELLITE_URL ?? 'http://satellite.localhost:4000';
const publishableKey = env.CLERK_PUBLISHABLE_KEY;
if (!publishableKey)
  throw new Error('Set CLERK_PUBLISHABLE_KEY (the product’s, from <product>/app-config.json).');
const secretKey =
  env.CLERK_SECRET_KEY ||
  readFileSync(
    env.SECRET_KEY_FILE ?? fileURLToPath(new URL('../../../.data/identity-secret-key', import.meta.url)),
    'utf8',
  ).trim();
const port = Number(new URL(ownUrl).port || 80);
createSatelliteApp({ productUrl, ownUrl, publishableKey, secretKey }).listen(
  port,
  '127.0.0.1',
  (err?: Error) => {
    if (err) throw err;
    console.warn(`Satellite on ${ownUrl}, product ${productUrl}`);
  },
);
