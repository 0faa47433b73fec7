import { childOrganizationSchema, type ChildOrganization } from '@app/contract';

/** A client organisation as the product API lists it (the contract's; missing flags read as off, an odd status as NO). */
export type { ChildOrganization };

/** Null when the answer is not a child organisation. */
export function parseChildOrganization(raw: unknown): ChildOrganization | null {
  const parsed = childOrganizationSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
