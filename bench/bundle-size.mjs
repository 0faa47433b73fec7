// Prints the size of the built web app (raw and gzip), and of the clerk-js files a first visit loads.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../web/dist/', import.meta.url).pathname;
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.(js|css|html)$/.test(name)) files.push(p);
  }
};
walk(dist);
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
let raw = 0;
let gz = 0;
for (const f of files.sort()) {
  const buf = readFileSync(f);
  const z = gzipSync(buf).length;
  raw += buf.length;
  gz += z;
  console.log(`${f.slice(dist.length).padEnd(40)} ${kb(buf.length).padStart(12)} ${kb(z).padStart(12)} gzip`);
}
console.log(`${'web total'.padEnd(40)} ${kb(raw).padStart(12)} ${kb(gz).padStart(12)} gzip`);
const clerk = readFileSync(new URL('../node_modules/@clerk/clerk-js/dist/clerk.browser.js', import.meta.url));
console.log(
  `${'clerk-js clerk.browser.js'.padEnd(40)} ${kb(clerk.length).padStart(12)} ${kb(gzipSync(clerk).length).padStart(12)} gzip`,
);
