import type { CliCommand } from './cli/cli-command.ts';
import type { IdentityDeps } from './deps.ts';
import type { RetentionRule } from './retention/retention-rule.ts';

/** Work a capability runs in the background while the provider runs (a worker, a schedule). */
export interface BackgroundJob {
  /** Stops the job and waits for the round in progress, if any. */
  stop(): Promise<void>;
}

/**
 * What a capability adds to the provider, declared once in its own folder (`<folder>/<name>-capability.ts`)
 * and assembled by the provider from `capabilities.ts`, instead of being edited into central files.
 *
 * Declared here so far: retention rules, background jobs and CLI commands. Still listed centrally
 * (docs/identity-internals.md says where and why): routes (the route tables); settings slices (each in its
 * capability's `<name>-settings.ts`, listed by instance/settings/schema.ts) and the environment
 * (instance/environment.ts), both read by the domain below this declaration, so assembling them from here
 * would be an import cycle.
 *
 * A declaration belongs to the assembly layer: it may import its capability's `cli/` (and, later, `fapi/`
 * and `bapi/`) parts, which the capability's domain files never do.
 */
export interface Capability<Name extends string = string, Job extends BackgroundJob = BackgroundJob> {
  /** The capability's name, as in docs/identity-internals.md; its job's key in `startCapabilityJobs`'s answer. */
  name: Name;
  /**
   * The purge's rules for the tables this capability owns, in the order they run. A table that grows with
   * traffic gets a rule here (identity/test/retention.test.ts checks the purge).
   */
  retention?: readonly RetentionRule[];
  /**
   * Its background job, started once the dependencies are built (in the reverse order of capabilities.ts:
   * what others rely on starts first) and stopped before the database closes (in that order).
   */
  start?(deps: IdentityDeps): Job;
  /**
   * Its commands of `npm run identity -- …` (`cli/<name>-commands.ts`); `cli/run-cli.ts` assembles them
   * after the instance's own, in the order of capabilities.ts, which is the order of the help.
   */
  cli?: readonly CliCommand[];
}
