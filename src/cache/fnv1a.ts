/** FNV-1a over a string's UTF-16 code units from index `from` on, as an unsigned 32-bit number. */
export function fnv1a(key: string, from = 0): number {
  let h = 0x811c9dc5;
  for (let i = from; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
