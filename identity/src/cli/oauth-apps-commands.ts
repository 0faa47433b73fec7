import { parseArgs } from 'node:util';
import { DatabaseInUseError } from '../db/pglite-lock.ts';
import type { OAuthApplicationInput } from '../oauth-provider/oauth-applications.ts';
import { CliError } from './actor-token-admin.ts';
import { UsageError, type CliCommand, type CliIo } from './cli-command.ts';
import { openOAuthAppsAdmin, type OAuthAppSummary, type OAuthAppsAdmin } from './oauth-apps-admin.ts';

type OAuthAppsCommand =
  | { action: 'list' }
  | { action: 'create'; input: OAuthApplicationInput }
  | { action: 'rotate-secret' | 'delete'; id: string };

/** `oauth-apps`: the OAuth applications this instance signs users in for (docs/oauth-provider.md). */
export const oauthAppsCommand: CliCommand = {
  name: 'oauth-apps',
  usage: `  oauth-apps list
      The OAuth applications, oldest first: id, client id, kind, scopes, redirect URIs.

  oauth-apps create <name> --redirect-uri <uri> [--redirect-uri <uri>…] [--scopes "openid profile email"]
                    [--public] [--no-consent] [--client-uri <https://…>] [--logo-url <https://…>]
      Registers an application (its home page and logo show on the consent screen); prints its client id and, for a confidential one, its client secret,
      shown this once (docs/oauth-provider.md).

  oauth-apps rotate-secret <oa_…>
      A new client secret (printed once); the old one stops working at once.

  oauth-apps delete <oa_…>
      Deletes the application.
`,
  parse(rest) {
    const command = parseOAuthAppsCommand(rest);
    return (io) => oauthApps(command, io);
  },
};

function parseOAuthAppsCommand(rest: string[]): OAuthAppsCommand {
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      'redirect-uri': { type: 'string', multiple: true },
      scopes: { type: 'string' },
      public: { type: 'boolean' },
      'no-consent': { type: 'boolean' },
      'client-uri': { type: 'string' },
      'logo-url': { type: 'string' },
    },
    strict: true,
    allowPositionals: true,
  });
  const [action, ...args] = positionals;
  const hasOptions = Object.keys(values).length > 0;
  if (action === 'list' && !args.length && !hasOptions) return { action };
  if (action === 'create' && args.length === 1) {
    return {
      action,
      input: {
        name: args[0],
        redirectUris: values['redirect-uri'] ?? [],
        scopes: values.scopes,
        public: values.public ?? false,
        consentScreenEnabled: !values['no-consent'],
        clientUri: values['client-uri'],
        logoUrl: values['logo-url'],
      },
    };
  }
  if ((action === 'rotate-secret' || action === 'delete') && args.length === 1 && !hasOptions) {
    return { action, id: args[0]! };
  }
  throw new UsageError(
    'oauth-apps takes "list", "create <name> --redirect-uri <uri> …", "rotate-secret <oa_…>" or "delete <oa_…>".',
  );
}

const line = (a: OAuthAppSummary) =>
  `${a.id}  ${a.client_id}  ${a.public ? 'public' : 'confidential'}  ${a.name}  [${a.scopes}]  ${a.redirect_uris.join(' ')}`;

async function oauthApps(command: OAuthAppsCommand, io: CliIo): Promise<number> {
  let admin: OAuthAppsAdmin | null = null;
  try {
    admin = await (io.openOAuthApps ?? openOAuthAppsAdmin)(io.env);
    if (command.action === 'list') {
      const page = await admin.list();
      for (const a of page.data) io.out(line(a));
      io.err(
        `${page.data.length} of ${page.total} application${page.total === 1 ? '' : 's'} (via ${admin.via}).`,
      );
    } else if (command.action === 'delete') {
      await admin.remove(command.id);
      io.err(`Deleted ${command.id} (via ${admin.via}).`);
    } else {
      const app =
        command.action === 'create'
          ? await admin.create(command.input)
          : await admin.rotateSecret(command.id);
      io.out(line(app));
      io.out(`client_id: ${app.client_id}`);
      if (app.client_secret) io.out(`client_secret: ${app.client_secret}`);
      io.err(
        (app.client_secret ? 'The client secret is shown this once: keep it now. ' : '') +
          `Discovery: ${app.discovery_url} (via ${admin.via}).`,
      );
    }
    return 0;
  } catch (err) {
    if (err instanceof CliError || err instanceof DatabaseInUseError) io.err(err.message);
    else io.err(`Failed: ${(err as Error).message}`);
    return 1;
  } finally {
    await admin?.close();
  }
}
