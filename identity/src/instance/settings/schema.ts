import { z } from '@app/contract';
import { ClaimsTemplateError, parseClaimsTemplate } from './claims-template.ts';

/**
 * The instance settings document: what the settings file declares, what the database keeps (one row,
 * see migration 014) and what `npm run identity -- settings` shows and changes. One schema for all three,
 * so a value is refused the same way wherever it comes from.
 */

/**
 * How a setting names a secret: never the secret itself, the environment variable that holds it, so the
 * file and the database can be shown and copied freely. No setting holds a secret yet; the first one
 * (a social provider's client secret, an SMTP password) uses this type and `secretFromEnv`.
 */
export const secretReference = z
  .object({
    env: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, 'must name an environment variable (upper case, digits and _).'),
  })
  .strict();
export type SecretReference = z.infer<typeof secretReference>;

/** The secret a reference names; a missing variable stops whoever needs it with the variable's name. */
export function secretFromEnv(ref: SecretReference, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[ref.env];
  if (!value)
    throw new Error(`The environment variable ${ref.env} named by the instance settings is not set.`);
  return value;
}

const claimsTemplate = z.record(z.string(), z.unknown()).superRefine((claims, ctx) => {
  try {
    parseClaimsTemplate(claims, '');
  } catch (err) {
    if (!(err instanceof ClaimsTemplateError)) throw err;
    // The template's own path ("".name) continues the document's (sessionToken.claims).
    const inner = err.path.replace(/^\./, '');
    ctx.addIssue({ code: 'custom', message: err.reason, path: inner ? [inner] : [] });
  }
});

export const instanceSettingsSchema = z
  .object({
    /** A JSON Schema for editors; ignored. */
    $schema: z.string().optional(),
    sessionToken: z
      .object({
        /** Clerk's "Customize session token" claims template (see claims-template.ts). */
        claims: claimsTemplate.default({}),
      })
      .strict()
      .default({ claims: {} }),
  })
  .strict();

export type InstanceSettings = z.output<typeof instanceSettingsSchema>;

/** A settings document refused: each problem as `field: reason`. */
export class InstanceSettingsError extends Error {
  constructor(
    readonly problems: string[],
    context: string,
  ) {
    super(`${context}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'InstanceSettingsError';
  }
}

/** Validates a settings document; throws InstanceSettingsError listing every field refused and why. */
export function parseInstanceSettings(
  value: unknown,
  context = 'Invalid instance settings',
): InstanceSettings {
  const result = instanceSettingsSchema.safeParse(value);
  if (result.success) return withoutSchemaLink(result.data);
  throw new InstanceSettingsError(
    result.error.issues.map(
      (issue) => `${issue.path.map(String).join('.') || '(document)'}: ${issue.message}`,
    ),
    context,
  );
}

function withoutSchemaLink(settings: InstanceSettings): InstanceSettings {
  const { $schema: _ignored, ...rest } = settings;
  return rest;
}

/**
 * What an instance runs with when no settings file is given (`npm start`) and nothing was set before:
 * the claims the product server reads from the session token instead of asking the Backend API on every
 * request. Against hosted Clerk, the same template is set in the dashboard (docs/instance-settings.md).
 */
export const DEFAULT_INSTANCE_SETTINGS: InstanceSettings = parseInstanceSettings({
  sessionToken: {
    claims: {
      email: '{{user.primary_email_address}}',
      first_name: '{{user.first_name}}',
      last_name: '{{user.last_name}}',
    },
  },
});
