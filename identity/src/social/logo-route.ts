import { z } from '@app/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, errors } from '../errors.ts';
import type { BesideRoute } from '../http/route-declaration.ts';
import { SOCIAL_LOGO_PATH } from './social-environment.ts';

// Plain marks of our own (a letter on the provider's colour), served from our origin: the sign-in page
// fetches nothing from outside, and no third-party artwork is shipped.
const mark = (background: string, letter: string, color = '#ffffff') =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="5" fill="${background}"/><text x="12" y="17" font-family="Arial,Helvetica,sans-serif" font-size="14" font-weight="700" text-anchor="middle" fill="${color}">${letter}</text></svg>`;

// A Map, not an object: the name comes from the URL, and `constructor.svg` must find nothing.
const LOGOS = new Map<string, string>([
  ['google', mark('#4285f4', 'G')],
  ['github', mark('#24292f', 'H')],
  ['microsoft', mark('#00a4ef', 'M')],
  ['apple', mark('#000000', 'A')],
  ['custom', mark('#64748b', '⇢')],
]);

/** GET <fapi>/v1/social_logos/<name>.svg — the logos `user_settings.social[*].logo_url` points at. */
export const socialLogoRoute: BesideRoute = {
  method: 'GET',
  path: `${SOCIAL_LOGO_PATH}/:file`,
  auth: 'none',
  permission: null,
  input: { params: z.object({ file: z.string() }) },
  handler: () => async (req: FastifyRequest, reply: FastifyReply) => {
    const { file } = req.params as { file: string };
    const svg = file.endsWith('.svg') ? LOGOS.get(file.slice(0, -4)) : undefined;
    if (!svg) return reply.code(404).send(errorBody(errors.notFound()));
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(svg);
  },
};
