import type { FastifyInstance } from 'fastify';
import { invalidParam, missingParam } from '../../domain/errors.js';
import type { EventVerification } from '../../domain/events/event.js';
import type { AppDeps } from '../context.js';
import { defineRoute } from '../define-route.js';
import { pathSegment } from '../params/common.js';
import { datetime, metadata, num, param, str } from '../params/index.js';
import { presentEvent } from '../presenters/event-presenter.js';

/** `verification` as the SDKs send it (1, -1, 0), or in words. */
const VERIFICATIONS: Record<string, EventVerification> = {
  '1': 1,
  '-1': -1,
  '0': 0,
  accept: 1,
  accepted: 1,
  reject: -1,
  rejected: -1,
  unverify: 0,
  unverified: 0,
};

const verification = () =>
  param({ type: ['integer', 'string'], enum: [1, -1, 0, 'accept', 'reject', 'unverify'] }, (raw, name) => {
    const v = VERIFICATIONS[String(raw).trim().toLowerCase()];
    if (v === undefined) throw invalidParam(name, 'must be 1 (accept), -1 (reject) or 0 (unverify).');
    return v;
  });

const identifier = () => str({ maxLength: 256 });

/**
 * The SDKs' event calls: `POST /v1/events` (logConversion: a custom event of the user, to its
 * webhooks and the daily counts), `PUT /v1/events/:id/verification` (the app's verdict on an event),
 * and `GET /v1/events/conversions` (secret; beyond the SDKs: the counts per name and day).
 */
export function conversionRoutes(app: FastifyInstance, { services }: AppDeps): void {
  const tag = 'Events';
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/events',
      auth: 'publishable',
      tag,
      summary: 'Log a conversion: a custom event of a tracked user (radar-sdk-js logConversion; type on mobile)',
      body: {
        name: str({ maxLength: 100 }).describe('the conversion name (radar-sdk-js)'),
        type: str({ maxLength: 100 }).describe('the conversion name (iOS, Android)'),
        revenue: num(),
        metadata: metadata(),
        id: identifier().describe("the user's _id"),
        userId: identifier(),
        deviceId: identifier(),
        installId: identifier(),
        createdAt: datetime(),
        latitude: num({ min: -90, max: 90 }),
        longitude: num({ min: -180, max: 180 }),
        accuracy: num({ min: 0 }),
      },
    },
    async ({ body, tenant, req }) => {
      const nameParam = body.name !== undefined ? 'name' : 'type';
      const name = body.name ?? body.type;
      if (name === undefined) throw missingParam('name');
      if ((body.latitude === undefined) !== (body.longitude === undefined))
        throw missingParam(body.latitude === undefined ? 'latitude' : 'longitude');
      const { event } = await services.events.logConversion(
        tenant,
        req.auth!.project,
        { id: body.id, userId: body.userId, deviceId: body.deviceId, installId: body.installId },
        {
          name,
          nameParam,
          ...(body.revenue !== undefined ? { revenue: body.revenue } : {}),
          ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
          ...(body.createdAt !== undefined ? { createdAt: body.createdAt } : {}),
          ...(body.latitude !== undefined && body.longitude !== undefined
            ? { location: [body.longitude, body.latitude] as [number, number] }
            : {}),
          ...(body.accuracy !== undefined ? { accuracy: body.accuracy } : {}),
        },
      );
      return { event: presentEvent(event) };
    },
  );

  defineRoute(
    app,
    {
      method: 'PUT',
      url: '/v1/events/:id/verification',
      auth: 'publishable',
      tag,
      summary: "Accept (1), reject (-1) or unverify (0) an event; shown in the event's verification",
      params: { id: pathSegment() },
      body: { verification: verification().required(), verifiedPlaceId: identifier() },
    },
    async ({ params, body, tenant }) => ({
      event: presentEvent(
        await services.events.verify(tenant, params.id, body.verification, body.verifiedPlaceId ?? null),
      ),
    }),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/events/conversions',
      auth: 'secret',
      tag,
      summary: 'Conversions per name and UTC day: counts and revenue summed (default: the last 30 days)',
      query: {
        from: datetime().describe('first day (a date or datetime, UTC); default 29 days before to'),
        to: datetime().describe('last day (a date or datetime, UTC); default today'),
      },
    },
    async ({ query, tenant }) => services.events.conversionSummary(tenant, query.from, query.to),
  );
}
