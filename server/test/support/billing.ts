import assert from 'node:assert/strict';
import type { User } from './embedded-server.ts';

/**
 * A checkout of `planId` (monthly) confirmed with a new card of the offline gateway, through the Frontend API
 * as clerk-js pays: the checkout, the card's set-up intent, the card form's confirmation (what the page's
 * Stripe.js stand-in sends the gateway), then the checkout's confirmation. `scope` is `/me/commerce` or
 * `/organizations/:id/commerce`.
 */
export async function payWithTestCard(user: User, scope: string, planId: string): Promise<void> {
  const checkout = await user.browser.call('POST', `${scope}/checkouts`, {
    plan_id: planId,
    plan_period: 'month',
  });
  assert.equal(checkout.status, 200, JSON.stringify(checkout.body));
  const setup = await user.browser.call('POST', `${scope}/payment_sources/initialize`, { gateway: 'stripe' });
  assert.equal(setup.status, 200, JSON.stringify(setup.body));
  const card = await user.browser.call('POST', '/commerce/offline_gateway/setup_intents/confirm', {
    client_secret: setup.body.response.external_client_secret,
    card_number: '4242424242424242',
    exp_month: '12',
    exp_year: '34',
    cvc: '123',
  });
  assert.equal(card.status, 200, JSON.stringify(card.body));
  const paid = await user.browser.call('PATCH', `${scope}/checkouts/${checkout.body.response.id}/confirm`, {
    gateway: 'stripe',
    payment_token: card.body.payment_method,
  });
  assert.equal(paid.status, 200, JSON.stringify(paid.body));
}
