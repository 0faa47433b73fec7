import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { urlWithoutForeignDevBrowserToken } from '../src/lib/dev-browser-token.ts';

describe("a __clerk_db_jwt in the page URL (clerk-js would adopt it over the browser's own)", () => {
  const link = 'http://localhost:3000/sign-in?redirect_url=%2Forg&__clerk_db_jwt=planted#/factor-one';

  it('is removed when the browser holds its own token, suffixed cookie or not', () => {
    const cleaned = 'http://localhost:3000/sign-in?redirect_url=%2Forg#/factor-one';
    assert.equal(urlWithoutForeignDevBrowserToken(link, '__clerk_db_jwt=own'), cleaned);
    assert.equal(urlWithoutForeignDevBrowserToken(link, 'a=1; __clerk_db_jwt_Ab12Cd3e=own; b=2'), cleaned);
  });

  it('is left for a browser without one (it has nothing to keep), and nothing else is touched', () => {
    assert.equal(urlWithoutForeignDevBrowserToken(link, ''), null);
    assert.equal(urlWithoutForeignDevBrowserToken(link, '__client_uat=0; __clerk_db_jwt='), null);
    assert.equal(urlWithoutForeignDevBrowserToken(link, 'x__clerk_db_jwt=own'), null);
    assert.equal(
      urlWithoutForeignDevBrowserToken('http://localhost:3000/sign-in', '__clerk_db_jwt=own'),
      null,
    );
  });
});
