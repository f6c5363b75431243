/**
 * Who a request acts for. Every tenant row carries both parts and every query is scoped by both,
 * so a test key never sees live data and one project never sees another's.
 */
export interface Tenant {
  projectId: string;
  live: boolean;
}
