/**
 * The client-organisation routes answer from the product API's one error registry (../errors.ts, the
 * contract's API_ERRORS); these are its former names, kept for the routes that still use them.
 */
export {
  ApiError as HierarchyError,
  bodyRouteErrorHandler as hierarchyErrorHandler,
  invalidRequest,
} from '../errors.ts';
