// The one contract between web, server and identity, as runtime schemas (zod) and the types they infer.
// Each subject has its own file; this re-exports them.
export * from './organization-metadata.ts';
export * from './roles.ts';
export * from './errors.ts';
export * from './api/me.ts';
export * from './api/current-organization.ts';
export * from './api/client-organizations.ts';
export * from './api/members.ts';
export * from './api/authorized-user.ts';

// For workspaces that read or write with these schemas without depending on zod themselves, and that
// build schemas of their own with the same (eval-free) zod: identity's instance settings file.
export { z } from './zod.ts';
export type { ZodType as Schema, input as SchemaInput, output as SchemaOutput } from 'zod';
