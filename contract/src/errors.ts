import { z } from './zod.ts';

/**
 * Every error the product API answers with: one stable machine code, its HTTP status and a default
 * message for people (English; the web shows its own translation of each code). Bodies are
 * `{ errors: [{ code, message }] }`, the shape of Clerk's own errors.
 */
export const API_ERRORS = {
  unauthenticated: { status: 401, message: 'A valid session token is required.' },
  body_invalid: { status: 400, message: 'The request body could not be read.' },
  body_too_large: { status: 413, message: 'The request body is too large.' },
  /** A body or parameter the route's schema refuses (routes taking a body also say so for unreadable JSON). */
  invalid_request: { status: 422, message: 'The request is not valid.' },
  forbidden: { status: 403, message: 'Your role in the active organisation does not allow this.' },
  no_active_organization: { status: 404, message: 'The session has no active organisation.' },
  organization_not_found: { status: 404, message: 'The active organisation no longer exists.' },
  not_a_child: {
    status: 404,
    message: 'This organisation is not a client organisation of the active one.',
  },
  hierarchy_cycle: { status: 409, message: 'This link would make a cycle in the hierarchy.' },
  hierarchy_too_deep: { status: 409, message: 'The hierarchy is too deep to take more organisations.' },
  already_has_parent: { status: 409, message: 'This organisation already belongs to another organisation.' },
  slug_taken: { status: 409, message: 'That slug is taken. Please try another.' },
  /** Too many failed API keys from one address lately (`Retry-After` says when to try again). */
  too_many_requests: { status: 429, message: 'Too many failed attempts. Try again later.' },
  /** Adding a member by address (POST /api/organizations/current/members). */
  email_address_invalid: { status: 422, message: 'The email address is not valid.' },
  already_member: { status: 409, message: 'This person is already a member of the organisation.' },
  already_invited: {
    status: 409,
    message: 'An invitation to this address is already pending for the organisation.',
  },
  membership_quota_exceeded: {
    status: 409,
    message: 'The organisation has reached its maximum number of members.',
  },
  /** The operator console (docs/console.md): the caller is not one of the instance's operators. */
  not_an_operator: { status: 403, message: 'The console is for the instance’s operators.' },
  billing_disabled: {
    status: 404,
    message: 'Billing is off on this instance (billing.enabled in the instance settings).',
  },
  /** An operator without a second factor: the console sends them to set one up. */
  second_factor_required: {
    status: 403,
    message: 'Set up a second factor on your account to use the console.',
  },
  /** A destructive console action on a session that has not proven its factors recently (Clerk's `strict`). */
  session_reverification_required: {
    status: 403,
    message: 'You need to provide additional verification to perform this operation.',
  },
  /** A user, organisation or session the Backend API does not know (or that belongs to someone else). */
  resource_not_found: { status: 404, message: 'Not found.' },
  /** The Backend API refused the change; the message is its own. */
  change_refused: { status: 422, message: 'The identity provider refused this change.' },
  /** The instance settings changed since the console read them (the Backend API's version guard): read again. */
  settings_conflict: {
    status: 409,
    message: 'Someone else changed the settings since you read them. Reload them and try again.',
  },
  internal_error: { status: 500, message: 'The server could not complete the request.' },
  service_unavailable: {
    status: 503,
    message: 'The service is temporarily unavailable. Try again in a moment.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ApiErrorCode = keyof typeof API_ERRORS;
export const apiErrorCodeSchema = z.enum(Object.keys(API_ERRORS) as [ApiErrorCode, ...ApiErrorCode[]]);

export const isApiErrorCode = (code: unknown): code is ApiErrorCode =>
  apiErrorCodeSchema.safeParse(code).success;

/**
 * One entry of an error body. The code is any string on reading: a proxy or a newer server may send
 * one this client does not know, which it then words generally.
 */
export const apiErrorItemSchema = z.object({ code: z.string(), message: z.string() });
export type ApiErrorItem = z.infer<typeof apiErrorItemSchema>;

export const apiErrorBodySchema = z.object({ errors: z.array(apiErrorItemSchema) });
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

export function apiErrorBody(code: ApiErrorCode, message: string = API_ERRORS[code].message): ApiErrorBody {
  return { errors: [{ code, message }] };
}

/**
 * One sentence for people (and logs) about why a value failed its schema: the first issue, with the
 * path to it. Never echoes the value itself.
 */
export function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return API_ERRORS.invalid_request.message;
  const path = issue.path.map(String).join('.');
  return path ? `"${path}": ${issue.message}` : issue.message;
}
