import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSignInStepReturn } from '../src/features/auth/sign-in-step-return.ts';

describe('a factor step sent back to the first step of <SignIn/>', () => {
  it('is the navigation to the site root from /sign-in#/factor-one or #/factor-two', () => {
    assert.equal(isSignInStepReturn('/', { pathname: '/sign-in', hash: '#/factor-one' }), true);
    assert.equal(isSignInStepReturn('/', { pathname: '/sign-in', hash: '#/factor-two' }), true);
  });

  it('is nothing else: other targets, pages or steps (signing out of all accounts from #/choose goes to /)', () => {
    assert.equal(isSignInStepReturn('/dashboard', { pathname: '/sign-in', hash: '#/factor-one' }), false);
    assert.equal(isSignInStepReturn('/', { pathname: '/sign-in', hash: '#/choose' }), false);
    assert.equal(isSignInStepReturn('/', { pathname: '/sign-in', hash: '' }), false);
    assert.equal(isSignInStepReturn('/', { pathname: '/dashboard', hash: '#/factor-one' }), false);
    assert.equal(isSignInStepReturn('/', { pathname: '/sign-up', hash: '#/verify-email-address' }), false);
  });
});
