import { createHmac } from 'node:crypto';

/**
 * The headers that let a receiver check a delivery came from this server, keyed by the webhook's
 * secret. Two schemes:
 * - the hosted service's (behaviour.md A.10), so receivers written for it work unchanged:
 *   `X-Radar-Signature` is the hex HMAC-SHA1 of the `X-Radar-Signing-Id` value. It signs an id, not the
 *   body, so it proves the sender only;
 * - `Whereabouts-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, which also proves
 *   the body and, with `t`, lets a receiver refuse old replays.
 */
export function signatureHeaders(
  secret: string,
  body: string,
  signingId: string,
  nowMs: number,
): Record<string, string> {
  const t = Math.floor(nowMs / 1000);
  return {
    'x-radar-signing-id': signingId,
    'x-radar-signature': createHmac('sha1', secret).update(signingId).digest('hex'),
    'whereabouts-signature': `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`,
  };
}
