import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redirectParamsMovedToHash } from '../src/features/auth/redirect-params-in-hash.ts';

const target = encodeURIComponent('http://localhost:3000/settings');

describe('redirect parameters of the hash-routed <SignIn/> and <SignUp/>', () => {
  it('moves redirect_url from the query into the hash route’s query', () => {
    assert.deepEqual(redirectParamsMovedToHash({ search: `?redirect_url=${target}`, hash: '' }), {
      search: '',
      hash: `#/?redirect_url=${target}`,
    });
    assert.deepEqual(
      redirectParamsMovedToHash({ search: '?sign_up_force_redirect_url=%2Forganizations', hash: '#/' }),
      { search: '', hash: '#/?sign_up_force_redirect_url=%2Forganizations' },
    );
  });

  it('keeps the hash route and its query, and clerk-js’s own parameters in the real query', () => {
    assert.deepEqual(
      redirectParamsMovedToHash({
        search: `?redirect_url=${target}&__clerk_status=verified&__clerk_created_session=sess_1`,
        hash: '#/verify?sign_in_fallback_redirect_url=%2Fdashboard',
      }),
      {
        search: '?__clerk_status=verified&__clerk_created_session=sess_1',
        hash: `#/verify?sign_in_fallback_redirect_url=%2Fdashboard&redirect_url=${target}`,
      },
    );
  });

  it('leaves a redirect_url already in the hash as it is', () => {
    assert.deepEqual(
      redirectParamsMovedToHash({
        search: '?redirect_url=%2Fhelp',
        hash: '#/factor-one?redirect_url=%2Fsettings',
      }),
      { search: '', hash: '#/factor-one?redirect_url=%2Fsettings' },
    );
  });

  it('has nothing to move without a redirect parameter in the query', () => {
    assert.equal(redirectParamsMovedToHash({ search: '', hash: `#/?redirect_url=${target}` }), null);
    assert.equal(redirectParamsMovedToHash({ search: '?__clerk_ticket=abc', hash: '' }), null);
  });
});
