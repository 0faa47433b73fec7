import { runCli } from './run-cli.ts';

/** `npm run identity -- <command>`: operator commands on the instance the server uses (see USAGE). */
process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
