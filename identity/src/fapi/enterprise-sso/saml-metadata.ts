import { z } from '@app/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { enabledConnection } from '../../enterprise-sso/connections.ts';
import { spMetadataXml } from '../../enterprise-sso/saml.ts';
import { errorBody, errors } from '../../errors.ts';
import type { BesideRoute } from '../../http/route-declaration.ts';

/**
 * GET <fapi>/v1/saml/metadata/<connection id>.xml — our SP metadata for a SAML connection, for the IdP's
 * administrator to load: the entity id (this URL), the ACS (HTTP-POST) and the NameID format. Public, as
 * hosted Clerk's; an unknown, disabled or OpenID Connect connection is 404.
 */
export const samlMetadataRoute: BesideRoute = {
  method: 'GET',
  path: '/v1/saml/metadata/:file',
  auth: 'none',
  permission: null,
  input: { params: z.object({ file: z.string() }) },
  handler: (deps) => async (req: FastifyRequest, reply: FastifyReply) => {
    const { file } = req.params as { file: string };
    const id = file.endsWith('.xml') ? file.slice(0, -4) : null;
    const connection = id ? enabledConnection(deps.settings.settings.enterpriseConnections, id) : null;
    if (!connection || connection.protocol !== 'saml')
      return reply.code(404).send(errorBody(errors.notFound()));
    let xml: string;
    try {
      xml = spMetadataXml(connection, deps.fapiBase);
    } catch (err) {
      console.warn(`identity: ${connection.id} cannot be used: ${(err as Error).message}`);
      return reply.code(404).send(errorBody(errors.notFound()));
    }
    return reply
      .type('application/samlmetadata+xml')
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(xml);
  },
};
