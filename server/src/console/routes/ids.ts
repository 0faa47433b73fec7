import { z } from '@app/contract';

/** Ids as Clerk makes them (a prefix, then base62): checked before any Backend API call names one. */
const idOf = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`), `a ${prefix}_ id`);

export const userIdParam = idOf('user');
export const organizationIdParam = idOf('org');
export const sessionIdParam = idOf('sess');

/** A list's page, as the console asks it: at most 100 rows from `offset`. */
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
};

/** A search text (email, phone, username, name or id): what `getUserList({ query })` takes. */
export const searchText = z.string().trim().max(200).optional();

export const waitlistEntryIdParam = idOf('wle');
export const invitationIdParam = idOf('inv');
export const allowlistIdentifierIdParam = idOf('alid');
export const blocklistIdentifierIdParam = idOf('blid');
export const passkeyIdParam = idOf('idn');
export const apiKeyIdParam = idOf('ak');
export const oauthApplicationIdParam = idOf('oa');
export const machineIdParam = idOf('mch');
/** Whose API keys: a user or an organisation. */
export const subjectIdParam = z.string().regex(/^(user|org)_[0-9A-Za-z]{1,64}$/, 'a user_ or org_ id');

/** One line of text, without control characters: what an operator types in a single field. */
export const oneLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((text) => ![...text].some((c) => c < ' ' || c === '\u007f'), 'one line of text');
