import type { DeliveryRecord, DeliveryStatus } from '../domain/ports/delivery-store.js';

/** A `deliveries` row as both engines return it (PostgreSQL's bigints may come as strings). */
export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number | string;
  updated_at: number | string;
}

/** A delivery log row as the domain reads it. */
export function deliveryRecord(r: DeliveryRow): DeliveryRecord {
  return {
    id: r.id,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at === null ? null : Number(r.next_attempt_at),
    lastStatus: r.last_status,
    lastError: r.last_error,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}
