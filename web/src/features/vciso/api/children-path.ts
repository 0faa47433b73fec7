/** The active organisation's client organisations, in the product API. */
export const CHILDREN_PATH = '/api/organizations/current/children';

export const childPath = (organizationId: string) => `${CHILDREN_PATH}/${encodeURIComponent(organizationId)}`;
