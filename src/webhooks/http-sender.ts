import type { Clock } from '../domain/clock.js';
import type { SendDelivery } from '../domain/webhooks/delivery-service.js';
import { presentEvent } from '../http/presenters/event-presenter.js';
import { PostThread } from './post-thread.js';
import { signatureHeaders } from './signature.js';

/** A receiver that has not answered in this long counts as a failed attempt. */
const TIMEOUT_MS = 10_000;

/**
 * Posts as the hosted service's webhooks do: `{event, user}`, or `{events, user}` for a `multiple`
 * webhook (`user` is the events' snapshot of their user), with signature headers and the ids a receiver
 * needs to drop repeats (`Whereabouts-Event-Id`, comma-separated when several; `Whereabouts-Delivery-Id`
 * names the outbox rows; the first one is the signing id). Redirects are not followed.
 *
 * The HTTP exchange runs on its own thread (`PostThread`) over `node:http` with kept-alive
 * connections, not `fetch`: on loopback a `fetch` post cost 200-239 µs of CPU and a `node:http` one
 * 40-54 (both ends counted), and on the event loop either comes out of the tracks' time.
 */
export function httpSender(clock: Clock, timeoutMs = TIMEOUT_MS, thread = new PostThread()): SendDelivery {
  return ({ webhook, items }) => {
    const events = items.map((i) => presentEvent(i.event));
    const body = JSON.stringify(
      webhook.mode === 'multiple' ? { events, user: events[0]!.user } : { event: events[0], user: events[0]!.user },
    );
    return thread.post({
      url: webhook.url,
      body,
      timeoutMs,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'Whereabouts-Webhooks/1',
        'whereabouts-event-id': items.map((i) => i.event.id).join(','),
        'whereabouts-delivery-id': items.map((i) => i.deliveryId).join(','),
        ...signatureHeaders(webhook.secret, body, items[0]!.deliveryId, clock.now()),
      },
    });
  };
}
