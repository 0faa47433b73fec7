import { runProductCli } from './run-product-cli.ts';

process.exitCode = await runProductCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
