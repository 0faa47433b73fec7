import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSsoCallbackStep } from '../src/features/auth/sso-callback-step.ts';

describe('the SSO-callback step clerk-js sends the popup opener to', () => {
  it('is a hash-routed #/sso-callback step, with or without its query', () => {
    const popupReturn =
      '/sign-in?sign_in_force_redirect_url=http%3A%2F%2Flocalhost%3A3000%2Fdashboard&intent=signIn' +
      '#/sso-callback?sign_in_fallback_redirect_url=http%3A%2F%2Flocalhost%3A3000%2Fdashboard';
    assert.equal(isSsoCallbackStep(popupReturn), true);
    assert.equal(isSsoCallbackStep('/sign-up?intent=signUp#/sso-callback'), true);
    assert.equal(isSsoCallbackStep('/sign-in#/sso-callback/'), true);
  });

  it('is nothing else: other steps, pages, or the words elsewhere in the URL', () => {
    assert.equal(isSsoCallbackStep('/dashboard'), false);
    assert.equal(isSsoCallbackStep('/sso-callback'), false);
    assert.equal(isSsoCallbackStep('/sign-in#/factor-one'), false);
    assert.equal(isSsoCallbackStep('/sign-in?next=%23/sso-callback'), false);
    assert.equal(isSsoCallbackStep('/sign-in#/sso-callbacks'), false);
    assert.equal(isSsoCallbackStep('/'), false);
  });
});
