import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useHttpClient } from '../../lib/http/useHttpClient.ts';
import { useQueryScope } from '../../lib/query/query-scope.ts';
import type { ParentOrganization } from './api/get-parent-organization.ts';
import { parentOrganizationQuery } from './hierarchy-queries.ts';

/**
 * The active organisation's parent: undefined while unknown (loading, or it could not be read: the
 * parent link is an extra, so a failure just leaves it out), null when there is none.
 */
export function useParentOrganization(): ParentOrganization | null | undefined {
  const scope = useQueryScope();
  const query = useQuery(parentOrganizationQuery(useHttpClient(), scope));
  const { error } = query;
  useEffect(() => {
    if (error) console.warn('The parent organisation could not be read.', error);
  }, [error]);
  if (!scope.organizationId) return null;
  return query.data;
}
