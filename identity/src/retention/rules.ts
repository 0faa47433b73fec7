import { ALL_CAPABILITIES } from '../capabilities.ts';
import type { RetentionRule } from './retention-rule.ts';

export type { RetentionRule } from './retention-rule.ts';

/**
 * What the purge deletes, table by table, in order: each capability's rules (its `*-capability.ts`), in
 * the order of capabilities.ts. A new table that grows with traffic adds its rule to its capability.
 */
export const RETENTION_RULES: readonly RetentionRule[] = ALL_CAPABILITIES.flatMap((c) => c.retention ?? []);
