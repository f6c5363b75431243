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
  // Most text is ASCII (every query of an address form, every street name): one pass over its characters,
  // a quarter of the cost of the decomposition and four regular expressions, which fold it the same way.
  let out = '';
  let gap = false;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0x80) return foldedName(text);
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (gap && out.length > 0) out += ' ';
      gap = false;
      out += String.fromCharCode(c);
    } else if (c !== 39 && c !== 96) gap = true; // apostrophes and backticks vanish; the rest split words
  }
  return out;
}

/** {@link normalizeName} of any text, by Unicode decomposition. Exported for the tests. */
export function foldedName(text: string): string {
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
