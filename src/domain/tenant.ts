/**
 * Who a request acts for. Every tenant row carries both parts and every query is scoped by both,
 * so a test key never sees live data and one project never sees another's.
 */
export interface Tenant {
  projectId: string;
  live: boolean;
}

/** The tenant as a map key (`projectId:1` live, `projectId:0` test): per-tenant caches key by it. */
export function tenantKey(t: Tenant): string {
  return `${t.projectId}:${t.live ? 1 : 0}`;
}
