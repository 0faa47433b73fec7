import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { selfSignedCertificate, TestIdp, type IdpUser } from '../../identity/test/support/saml-idp.ts';

/** A SAML IdP the test runs: what a connection to it needs, and our SP metadata once the connection exists. */
export interface SamlIdpStandIn {
  entityId: string;
  ssoUrl: string;
  certificate: string;
  /** Our SP metadata (the connection's `spMetadataUrl`): the IdP reads our ACS from it. */
  metadataXml: string;
}

/**
 * A SAML IdP on a loopback port (samlify, signing with a key made here), stopped when the test ends. Its
 * SSO URL reads our AuthnRequest and answers the page an IdP does: a form posting the signed response for
 * `person` (as it is at that moment) to our ACS.
 */
export async function startSamlIdp(t: TestContext, person: IdpUser): Promise<SamlIdpStandIn> {
  const entityId = 'https://idp.e2e.test/saml';
  const keys = selfSignedCertificate('E2E SAML IdP');
  let idp: TestIdp | null = null;
  const standIn: SamlIdpStandIn = { entityId, ssoUrl: '', certificate: keys.certificate, metadataXml: '' };
  const server = createServer((req, res) => {
    void (async () => {
      const sp = idp!.sp(standIn.metadataXml);
      const { requestId } = await idp!.readRequest(sp, `http://idp.local${req.url}`);
      const response = await idp!.respond(sp, requestId, person);
      const acs = /AssertionConsumerService[^>]*Location="([^"]+)"/.exec(standIn.metadataXml)![1]!;
      res.setHeader('content-type', 'text/html');
      res.end(
        `<form method="post" action="${acs}"><input type="hidden" name="SAMLResponse" value="${response}"></form>` +
          '<script>document.forms[0].submit()</script>',
      );
    })().catch((err: Error) => res.writeHead(500).end(err.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  standIn.ssoUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sso`;
  idp = new TestIdp(entityId, standIn.ssoUrl, keys);
  return standIn;
}

/**
 * A SAML connection to `idp` for `domain`, as an operator makes it with @clerk/backend: created inactive,
 * then turned on (deleted when the test ends). Reads our SP metadata into `idp`. Answers its id.
 */
export async function connectSamlIdp(
  t: TestContext,
  clerk: ClerkClient,
  idp: SamlIdpStandIn,
  opts: { domain: string; organizationId?: string },
): Promise<string> {
  const created = await clerk.samlConnections.createSamlConnection({
    name: 'E2E Workforce',
    provider: 'saml_custom',
    domain: opts.domain,
    ...(opts.organizationId ? { organizationId: opts.organizationId } : {}),
    idpEntityId: idp.entityId,
    idpSsoUrl: idp.ssoUrl,
    idpCertificate: idp.certificate,
  });
  t.after(() => clerk.samlConnections.deleteSamlConnection(created.id).then(() => undefined));
  const connection = await clerk.samlConnections.updateSamlConnection(created.id, { active: true });
  assert.equal(connection.active, true);
  idp.metadataXml = await (await fetch(connection.spMetadataUrl)).text();
  return created.id;
}
