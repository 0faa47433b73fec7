import { Link } from 'react-router';
import { PRODUCT_NAME } from '../lib/product.ts';

export function NotFoundPage() {
  return (
    <section className="card page-narrow" data-testid="not-found">
      <title>{`Page not found · ${PRODUCT_NAME}`}</title>
      <h1>Page not found</h1>
      <p>There is nothing at this address. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link to="/" data-testid="not-found-home-link">
          Go to the home page
        </Link>
      </p>
    </section>
  );
}
