import type { StoreChange, UserIdentities } from '../../domain/ports/store.js';
import type { Tenant } from '../../domain/tenant.js';

/**
 * What a commit changed that a process may keep in memory, as `commit_log.changes` holds it: one line
 * per record, `kind projectId live id` (`-` for a field not given; ids and project ids never hold a
 * space), and for a user written its `userId deviceId` as written (`-` for null, else `=` and the value
 * URI-encoded, so it holds no space or line break). The empty text means nothing kept in memory (usage
 * counts); null means not known, and other processes then drop everything they keep (the CLI's bulk
 * loads, older writers). A reader ignores fields past those it knows.
 *
 * Several API processes on one database read these to refresh just what another one wrote, instead of
 * reloading every index whenever any commit (a usage flush, a track) landed.
 */
export type CommitChanges = string | null;

export const NOTHING_KEPT: CommitChanges = '';

/** Changes, or a function that tells them once the writes have run (the ids a write chose as it wrote). */
export type LaterChanges = CommitChanges | (() => CommitChanges);

/** The changes a `LaterChanges` stands for; call after its writes have run. */
export function changesNow(changes: LaterChanges): CommitChanges {
  return typeof changes === 'function' ? changes() : changes;
}

/**
 * One changed record (or, without `id`, anything of that kind in the tenant; without `tenant`, in all);
 * `identities`: a user's as written, so that other processes need not read them back.
 */
export function changeLine(
  kind: StoreChange['kind'],
  tenant?: Tenant,
  id?: string,
  identities?: UserIdentities,
): string {
  if (!tenant) return `${kind} - - -`;
  const line = `${kind} ${tenant.projectId} ${tenant.live ? 1 : 0} ${id ?? '-'}`;
  return identities ? `${line} ${identityField(identities.userId)} ${identityField(identities.deviceId)}` : line;
}

function identityField(value: string | null): string {
  return value === null ? '-' : `=${encodeURIComponent(value)}`;
}

function readIdentity(field: string): string | null {
  return field.startsWith('=') ? decodeURIComponent(field.slice(1)) : null;
}

/** The changes of commits made as one transaction: unknown if any of them is. */
export function mergeChanges(parts: readonly CommitChanges[]): CommitChanges {
  let out = '';
  for (const p of parts) {
    if (p === null) return null;
    if (p !== '') out = out === '' ? p : `${out}\n${p}`;
  }
  return out;
}

/** The records named by a logged commit; `{kind: 'unknown'}` alone when it did not say. */
export function readChanges(text: CommitChanges): StoreChange[] {
  if (text === null) return [{ kind: 'unknown' }];
  if (text === '') return [];
  const out: StoreChange[] = [];
  for (const line of text.split('\n')) {
    const [kind, projectId, live, id, userId, deviceId] = line.split(' ') as [
      StoreChange['kind'],
      string,
      string,
      string,
      string | undefined,
      string | undefined,
    ];
    const change: StoreChange = { kind };
    if (projectId !== '-' && projectId !== undefined) change.tenant = { projectId, live: live === '1' };
    if (id !== '-' && id !== undefined) change.id = id;
    if (userId !== undefined && deviceId !== undefined)
      change.identities = { userId: readIdentity(userId), deviceId: readIdentity(deviceId) };
    out.push(change);
  }
  return out;
}
