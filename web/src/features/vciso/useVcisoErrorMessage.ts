import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../lib/http/index.ts';

/**
 * What to tell the user about a failed console request, by the product API's error code (the server's
 * own messages are English, so known codes are translated here; anything else gets a general message).
 */
export function useVcisoErrorMessage(): (error: unknown) => string {
  const { t } = useTranslation();
  return useCallback(
    (error: unknown) => {
      const code = error instanceof HttpError ? error.code : null;
      switch (code) {
        case 'forbidden':
          return t('vciso.errors.forbidden');
        case 'hierarchy_cycle':
          return t('vciso.errors.hierarchy_cycle');
        case 'hierarchy_too_deep':
          return t('vciso.errors.hierarchy_too_deep');
        case 'already_has_parent':
          return t('vciso.errors.already_has_parent');
        case 'not_a_child':
          return t('vciso.errors.not_a_child');
        case 'slug_taken':
          return t('vciso.errors.slug_taken');
        case 'invalid_request':
          return t('vciso.errors.invalid_request');
        default:
          return error instanceof HttpError && error.status === null
            ? t('vciso.errors.unreachable')
            : t('vciso.errors.generic');
      }
    },
    [t],
  );
}
