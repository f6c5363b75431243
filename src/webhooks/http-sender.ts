import type { Clock } from '../domain/clock.js';
import type { SendDelivery, SendResult } from '../domain/webhooks/delivery-service.js';
import { presentEvent } from '../http/presenters/event-presenter.js';
import { signatureHeaders } from './signature.js';

/** A receiver that has not answered in this long counts as a failed attempt. */
const TIMEOUT_MS = 10_000;

/**
 * Posts a delivery as the hosted service's single-event webhooks do: `{event, user}` (`user` is the
 * event's snapshot of its user), with signature headers and the ids a receiver needs to drop repeats
 * (`Whereabouts-Event-Id`; `Whereabouts-Delivery-Id` names the outbox row). Redirects are not followed.
 */
export function httpSender(clock: Clock, timeoutMs = TIMEOUT_MS): SendDelivery {
  return async ({ webhook, event, deliveryId }): Promise<SendResult> => {
    const wire = presentEvent(event);
    const body = JSON.stringify({ event: wire, user: wire.user });
    try {
      const res = await fetch(webhook.url, {
        method: 'POST',
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Whereabouts-Webhooks/1',
          'whereabouts-event-id': event.id,
          'whereabouts-delivery-id': deliveryId,
          ...signatureHeaders(webhook.secret, body, deliveryId, clock.now()),
        },
      });
      // The body is not read: drop it so that the connection can be reused.
      await res.body?.cancel();
      return { status: res.status, error: null };
    } catch (err) {
      // fetch says only "fetch failed"; the cause says why (ECONNREFUSED, ENOTFOUND, "bad port", ...).
      const e = err as Error & { cause?: { code?: string; message?: string } };
      const why =
        e.name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : (e.cause?.code ?? e.cause?.message ?? e.message);
      return { status: null, error: why };
    }
  };
}
