import { CHILDREN_PATH } from '@app/contract';

/** The active organisation's client organisations, in the product API. */
export { CHILDREN_PATH };

export const childPath = (organizationId: string) => `${CHILDREN_PATH}/${encodeURIComponent(organizationId)}`;
