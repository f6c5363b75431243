// Every fence read from a stored document brings its own copy of its project's id (JSON.parse makes a
// new string for each); a loaded index of 100,000 fences held 100,000 copies of the same one. Bounded
// by the number of projects, which is small.
const projectIds = new Map<string, string>();

/** The first copy of `projectId` seen, so that the fences of a project all hold one string. */
export function sharedProjectId(projectId: string): string {
  const shared = projectIds.get(projectId);
  if (shared !== undefined) return shared;
  projectIds.set(projectId, projectId);
  return projectId;
}
