export { createHttpClient, composeInterceptors, type HttpClient, type HttpClientOptions } from './client.ts';
export { localizedFetch } from './localized-fetch.ts';
export { bearerInterceptor } from './bearer-interceptor.ts';
export { localizationInterceptor, LOCALIZATION_HEADER } from './localization-interceptor.ts';
export { HttpError, isApiErrorBody, type ApiErrorBody, type ApiErrorItem } from './http-error.ts';
export { matchesProtectedUrl, PRODUCT_PROTECTED_URLS } from './protected-urls.ts';
export type {
  FetchLike,
  GetLanguage,
  GetToken,
  HttpLogger,
  OutgoingRequest,
  RequestInterceptor,
} from './types.ts';
