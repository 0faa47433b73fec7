import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONSOLE_API, consoleSend } from '../api/console-api.ts';
import { consoleKey } from '../api/console-queries.ts';
import type { ModuleKey } from '../../modules/modules.ts';
import type { OrganizationExtras } from '../api/types.ts';
import { useConsole } from '../useConsole.ts';

/**
 * Switches one of an organisation's modules on or off (POST /console/api/organizations/:id/modules), as
 * its admins do on /settings; the organisation's page is read again afterwards.
 */
export function useModulesChange(organizationId: string) {
  const { client, userId } = useConsole();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: ({ module, enabled }: { module: ModuleKey; enabled: boolean }) =>
      consoleSend<{ modules: OrganizationExtras['modules'] }>(
        client,
        'POST',
        `${CONSOLE_API}/organizations/${encodeURIComponent(organizationId)}/modules`,
        { [module]: enabled },
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: consoleKey(userId) }),
  });
}
