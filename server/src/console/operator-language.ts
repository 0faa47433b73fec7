import type { FastifyRequest } from 'fastify';
import { uiLanguageSchema } from '@app/contract';

/**
 * The Accept-Language the console's Backend API calls send, so that billing's plan and feature names come
 * in the operator's language: the interface's, which the web sends as `x-localization: FR|EN` on every
 * product request (spec §7, web/src/lib/http/localization-interceptor.ts), else the browser's
 * Accept-Language as it came. The Backend API answers French when neither names French or English.
 */
export function operatorAcceptLanguage(req: FastifyRequest): string | undefined {
  const ui = uiLanguageSchema.safeParse(req.headers['x-localization']);
  if (ui.success) return ui.data.toLowerCase();
  const browser = req.headers['accept-language'];
  return typeof browser === 'string' && browser ? browser : undefined;
}
