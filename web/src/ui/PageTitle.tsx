import { PRODUCT_NAME } from '../lib/product.ts';

/** The document title of a page, `<page> · Qoala`; React hoists it into <head>. */
export function PageTitle({ children }: { children: string }) {
  return <title>{`${children} · ${PRODUCT_NAME}`}</title>;
}
