// Letters that Unicode decomposition does not split into a base letter plus a mark.
const SPECIAL_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  ı: 'i',
  þ: 'th',
};

/**
 * The search key of a place name: lower case ASCII letters and digits separated by single spaces.
 * Accents are folded (`Zürich` → `zurich`), apostrophes vanish (`O'Fallon` → `ofallon`) and any other
 * punctuation splits words (`Wilkes-Barre` → `wilkes barre`). Letters of non-Latin scripts vanish, so a
 * name written only in them gives the empty string.
 */
export function normalizeName(text: string): string {
  const folded = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæœøđðłıþ]/g, (c) => SPECIAL_LETTERS[c] ?? c)
    .replace(/['’‘`ʻ]/g, '');
  return folded.replace(/[^a-z0-9]+/g, ' ').trim();
}

/** Whether a name is written in Latin script only (digits, spaces and punctuation allowed). */
export function isLatinName(text: string): boolean {
  return !/[^\p{Script=Latin}\p{M}\p{N}\p{Zs}\p{P}]/u.test(text);
}
