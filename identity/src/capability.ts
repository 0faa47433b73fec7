import type { RetentionRule } from './retention/retention-rule.ts';

/**
 * What a capability adds to the provider, declared once in its own folder (`<folder>/<name>-capability.ts`)
 * and assembled by the provider from `capabilities.ts`, instead of being edited into central files.
 *
 * Declared here so far: retention rules. Still listed centrally (docs/identity-internals.md says where):
 * settings slices (instance/settings/schema.ts), the environment (instance/environment.ts), routes (the
 * route tables), background jobs (identity.ts) and CLI commands (cli/main.ts).
 */
export interface Capability {
  /** The capability's name, as in docs/identity-internals.md. */
  name: string;
  /**
   * The purge's rules for the tables this capability owns, in the order they run. A table that grows with
   * traffic gets a rule here (identity/test/retention.test.ts checks the purge).
   */
  retention?: readonly RetentionRule[];
}
