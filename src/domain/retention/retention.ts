/**
 * How long a project keeps what its devices leave behind, in days; null keeps it for good. Events
 * count from their `createdAt`, users from their last update, trips from their last update once they
 * have stopped (an active trip is never removed; its tracked points go with it).
 */
export interface RetentionPolicy {
  eventsDays: number | null;
  tripsDays: number | null;
  usersDays: number | null;
}

/** The hosted service's defaults (behaviour.md, "Data retention defaults"), for projects that set none. */
export const DEFAULT_RETENTION: RetentionPolicy = { eventsDays: 365, tripsDays: 90, usersDays: 365 };

/** The policy a project keeps its data by: its own, else the defaults. (Typed by the one field it reads.) */
export function retentionOf(project: { retention?: RetentionPolicy | undefined }): RetentionPolicy {
  return project.retention ?? DEFAULT_RETENTION;
}
