import {
  newChildOrganizationSchema,
  organizationIdSchema,
  type ParsedNewChildOrganization,
} from '@app/contract';
import { parseRequest } from '../contract-io.ts';

export type NewChildInput = ParsedNewChildOrganization;

/** POST /children's body, strictly as the contract has it: `{ name, slug? }`, a blank slug meaning "derive it". */
export function parseNewChild(body: unknown): NewChildInput {
  return parseRequest(newChildOrganizationSchema, body);
}

/** Only ids: the Backend API also takes a slug where an id goes, which must not sneak in here. */
export function parseOrganizationId(raw: unknown): string {
  return parseRequest(organizationIdSchema, raw);
}
