import { randomToken } from '../../crypto/secrets.ts';
import { enabledConnection, samlAcsUrl } from '../../enterprise-sso/connections.ts';
import {
  acceptSamlResponse,
  claimedRequestId,
  MAX_SAML_RESPONSE_LENGTH,
  SamlRefusal,
} from '../../enterprise-sso/saml.ts';
import { errors } from '../../errors.ts';
import {
  findOpenSamlRequest,
  recordSamlAssertion,
  settleSamlRequest,
  type SamlOutcome,
  type SamlRequestRow,
} from '../../store/enterprise-sso.ts';
import type { FapiContext, FapiRoute } from '../context.ts';
import { rawField } from '../form.ts';
import { formInput } from '../form-input.ts';

/** How long the browser has to come back to our origin with the ACS's handoff (it is sent at once). */
export const SAML_HANDOFF_TTL_MS = 2 * 60 * 1000;

export const signInPage = (ctx: FapiContext) => `${ctx.deps.config.publicUrl}/sign-in`;

/**
 * POST /v1/saml/acs/:connectionId — the Assertion Consumer Service: the IdP's page posts the SAMLResponse
 * here from its own site (HTTP-POST binding), so the request carries none of our SameSite cookies and
 * the browser's client cannot be known. Everything about the response is decided here, once:
 *
 * - it must answer (InResponseTo) an AuthnRequest we issued for this connection, unused and unexpired;
 *   that request is spent whatever the outcome;
 * - node-saml checks the assertion's signature against the connection's certificate (an unsigned
 *   assertion, one signed by another key or a second assertion beside or around the signed one are
 *   refused), the audience (our SP entity id), NotBefore/NotOnOrAfter with a minute's skew, and the
 *   subject's InResponseTo; saml.ts adds the recipient, the destination and the issuer;
 * - the assertion's id is recorded: the same assertion posted again is refused, on any instance.
 *
 * The outcome (who signed in, or why not) is left on the request with a one-time handoff, and the browser
 * is sent (303) to the GET form of this URL carrying it: a top-level navigation to our origin, which does
 * carry the cookies, where saml-acs-complete.ts checks the request was made for this browser's client
 * and sign-in before anything happens to an account. A response that answers none of our requests
 * (unsolicited, IdP-initiated, replayed, forged) changes nothing and lands on the sign-in page. The
 * route is exempt from the origin guard (http/origins.ts): no cookie is read or written here, and what
 * it writes is bound to the request the response proves it answers.
 */
export const samlAcsRoute: FapiRoute = {
  method: 'POST',
  path: '/saml/acs/:connectionId',
  auth: 'none',
  permission: null,
  input: { body: formInput({ SAMLResponse: 'token', RelayState: 'text' }) },
  rateLimits: (req) => [{ key: `saml_acs:ip:${req.ip}`, limit: 30, windowSeconds: 60 }],
  async handler(ctx) {
    const connection = enabledConnection(
      ctx.deps.settings.settings.enterpriseConnections,
      ctx.params.connectionId!,
    );
    // A connection this instance does not have (or not enabled): nothing to post to.
    if (!connection || connection.protocol !== 'saml') throw errors.notFound('saml connection');
    const samlResponse = rawField(ctx.body, 'SAMLResponse');
    if (!samlResponse) return { redirect: signInPage(ctx) };
    const requestId =
      samlResponse.length <= MAX_SAML_RESPONSE_LENGTH ? await claimedRequestId(samlResponse) : null;
    if (!requestId) {
      console.warn(`identity: ${connection.id} SAML response refused: it answers no request`);
      return { redirect: signInPage(ctx) };
    }
    let request: SamlRequestRow | null = null;
    const lookup = async (id: string) => {
      if (id !== requestId) return false;
      request ??= await findOpenSamlRequest(ctx.tx, id, connection.id, ctx.now);
      return request !== null;
    };
    let outcome: SamlOutcome;
    try {
      const accepted = await acceptSamlResponse(
        connection,
        ctx.deps.fapiBase,
        samlResponse,
        requestId,
        lookup,
      );
      const fresh = await recordSamlAssertion(
        ctx.tx,
        connection.id,
        accepted.assertionId,
        accepted.assertionExpireAt,
        ctx.now,
      );
      if (!fresh) throw new SamlRefusal('the assertion was used before');
      outcome = { identity: accepted.identity };
    } catch (err) {
      if (!(err instanceof SamlRefusal)) throw err;
      // node-saml's message says which check failed; it holds no assertion content or secret.
      console.warn(`identity: ${connection.id} SAML response refused: ${err.message}`);
      outcome = { refusal: errors.enterpriseSsoResponseInvalid().toJSON() };
    }
    // Answers none of our open requests: nobody's sign-in moves.
    const answered = request as SamlRequestRow | null;
    if (!answered) return { redirect: signInPage(ctx) };
    const handoff = randomToken();
    await settleSamlRequest(
      ctx.tx,
      answered.id,
      outcome,
      handoff,
      new Date(ctx.now.getTime() + SAML_HANDOFF_TTL_MS),
      ctx.now,
    );
    const next = new URL(samlAcsUrl(ctx.deps.fapiBase, connection.id));
    next.searchParams.set('handoff', handoff);
    return { redirect: next.toString() };
  },
};
