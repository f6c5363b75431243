export async function exportCommand(_c: unknown, _a: string[]): Promise<number> {
  return 1;
}
