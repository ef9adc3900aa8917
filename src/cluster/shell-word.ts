/** A word as a POSIX shell reads it back: as is when it is plain, else in single quotes. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_./:=,@%+-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
