import { useLayoutEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { redirectParamsMovedToHash } from './redirect-params-in-hash.ts';

/**
 * Puts `?redirect_url=…` (and clerk-js's other redirect parameters) where the hash-routed `<SignIn/>` and
 * `<SignUp/>` read them (see redirectParamsMovedToHash), replacing the history entry. Returns false until the
 * address is in that form: the card is mounted only then, so it never starts without them.
 */
export function useRedirectParamsInHash(): boolean {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const moved = redirectParamsMovedToHash({ search, hash });
  const target = moved ? `${pathname}${moved.search}${moved.hash}` : null;

  useLayoutEffect(() => {
    if (target) void navigate(target, { replace: true });
  }, [navigate, target]);

  return target === null;
}
