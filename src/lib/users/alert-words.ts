/**
 * Alert words: which recipients of a message get the has_alert_word flag. Zulip matches a word
 * case-insensitively where it stands between these characters (or the start/end of the text).
 */
const ALLOWED_BEFORE = new Set([" ", "\n", "(", '"', ".", ",", "'", ";", "[", "*", "`", ">"]);
const ALLOWED_AFTER = new Set([" ", "\n", ")", '"', "?", ":", ".", ",", "'", ";", "]", "!", "*", "`"]);

/** Whether `content` contains any of `words` as Zulip's alert-word matcher sees it. */
export function alertWordsMatch(content: string, words: readonly string[]): boolean {
  const text = content.toLowerCase();
  for (const raw of words) {
    const word = raw.toLowerCase();
    if (word.length === 0) continue;
    let at = text.indexOf(word);
    while (at !== -1) {
      const before = at === 0 ? undefined : text[at - 1];
      const after = text[at + word.length];
      if ((before === undefined || ALLOWED_BEFORE.has(before)) && (after === undefined || ALLOWED_AFTER.has(after))) return true;
      at = text.indexOf(word, at + 1);
    }
  }
  return false;
}
