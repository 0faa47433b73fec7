import { pageJSON, paymentJSON, statementJSON } from '../../billing/billing-json.ts';
import {
  getPaymentAttempt,
  getStatement,
  listPaymentAttempts,
  listStatements,
} from '../../billing/statements.ts';
import { errors } from '../../errors.ts';
import { billingCaller } from './billing-access.ts';
import { billingId, billingPage } from './billing-input.ts';
import { scopedRoutes } from './scoped-routes.ts';
import { formInput } from '../form-input.ts';

/** GET {scope}/commerce/statements — Billing → Statements, paginated, in `response`. */
export const listStatementsRoutes = scopedRoutes(
  'GET',
  '/commerce/statements',
  { query: formInput({ limit: 'page', offset: 'page' }) },
  async (ctx) => {
    const caller = await billingCaller(ctx, 'read');
    const { data, totalCount } = await listStatements(ctx.tx, caller.ref, billingPage(ctx), ctx.now);
    return {
      response: pageJSON(
        data.map((s) => statementJSON(s, caller.catalogue.currency, ctx.now, caller.language)),
        totalCount,
      ),
    };
  },
);

/** GET {scope}/commerce/statements/:id — one statement, in `response`; another payer's is 404. */
export const getStatementRoutes = scopedRoutes(
  'GET',
  '/commerce/statements/:id',
  { query: formInput() },
  async (ctx) => {
    const caller = await billingCaller(ctx, 'read');
    const statement = await getStatement(ctx.tx, caller.ref, billingId(ctx.params.id, 'statement'), ctx.now);
    if (!statement) throw errors.notFound('statement');
    return { response: statementJSON(statement, caller.catalogue.currency, ctx.now, caller.language) };
  },
);

/** GET {scope}/commerce/payment_attempts — Billing → Payments; clerk-js reads the body itself (bare). */
export const listPaymentAttemptsRoutes = scopedRoutes(
  'GET',
  '/commerce/payment_attempts',
  { query: formInput({ limit: 'page', offset: 'page' }) },
  async (ctx) => {
    const caller = await billingCaller(ctx, 'read');
    const { data, totalCount } = await listPaymentAttempts(ctx.tx, caller.ref, billingPage(ctx));
    return {
      bare: pageJSON(
        data.map((p) => paymentJSON(p, ctx.now, caller.language)),
        totalCount,
      ),
    };
  },
);

/** GET {scope}/commerce/payment_attempts/:id — one payment, bare; another payer's is 404. */
export const getPaymentAttemptRoutes = scopedRoutes(
  'GET',
  '/commerce/payment_attempts/:id',
  { query: formInput() },
  async (ctx) => {
    const caller = await billingCaller(ctx, 'read');
    const payment = await getPaymentAttempt(ctx.tx, caller.ref, billingId(ctx.params.id, 'payment attempt'));
    if (!payment) throw errors.notFound('payment attempt');
    return { bare: paymentJSON(payment, ctx.now, caller.language) };
  },
);
