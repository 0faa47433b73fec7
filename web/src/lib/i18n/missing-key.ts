export interface MissingKeyOptions {
  production: boolean;
  warn: (message: string) => void;
}

/**
 * Spec §8: a missing translation key logs a warning outside production and renders nothing. Used as
 * i18next's `parseMissingKeyHandler`, which decides what `t()` returns for a key it does not have.
 */
export function missingKeyHandler({ production, warn }: MissingKeyOptions) {
  return (key: string): string => {
    if (!production) warn(`Missing translation key "${key}".`);
    return '';
  };
}
