import { useAuth } from '@clerk/clerk-react';
import { useEffect } from 'react';
import { useLanguage } from '../../lib/i18n/useLanguage.ts';
import { followPhoneCountry, type PhoneCountryHolder } from './phone-country.ts';

/**
 * Keeps the starting country of Clerk's phone inputs on the interface language (FR → +33). The field
 * lives on the clerk-js instance itself (window.Clerk), which clerk-react's wrapper does not pass through.
 */
export function PhoneCountrySync() {
  const { language } = useLanguage();
  const { isLoaded } = useAuth();

  useEffect(() => {
    const clerk = (window as { Clerk?: PhoneCountryHolder }).Clerk;
    // Set as soon as clerk-js exists (main.tsx starts it early), before it mounts any component; again
    // once it has loaded, in case it had not run yet.
    if (clerk) followPhoneCountry(clerk, language);
  }, [isLoaded, language]);

  return null;
}
