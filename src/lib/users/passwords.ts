/**
 * Zulip's server-side password rule with its default settings: at least PASSWORD_MIN_LENGTH
 * characters, and not guessable in fewer than PASSWORD_MIN_GUESSES tries. Zulip estimates the
 * guesses with zxcvbn; we approximate that estimate without its dictionaries: a password is
 * guessable when it is one of the most common passwords (ignoring case and trailing digits),
 * a repetition of a short chunk, a run of consecutive letters or digits, or a run of one
 * keyboard row. Anything else of six or more characters needs at least 10^6 brute-force guesses
 * by zxcvbn's own bound, above the limit.
 */
export const PASSWORD_MIN_LENGTH = 6;
/** Reported by /register as password_min_guesses; the threshold the rule above approximates. */
export const PASSWORD_MIN_GUESSES = 10000;

/** Whether Zulip would accept the password as strong enough. */
export function isStrongPassword(password: string): boolean {
  if ([...password].length < PASSWORD_MIN_LENGTH) return false;
  const lower = password.toLowerCase();
  if (COMMON.has(lower) || COMMON.has(lower.replace(/\d{1,4}$/, ""))) return false;
  if (/^(.{1,3})\1+$/su.test(lower)) return false;
  if (isSequence(lower)) return false;
  return !KEYBOARD_ROWS.some((row) => row.includes(lower) || [...row].reverse().join("").includes(lower));
}

/** Each character one code point above (or each one below) the previous one: abcdef, 987654. */
function isSequence(text: string): boolean {
  const codes = [...text].map((c) => c.codePointAt(0) ?? 0);
  const step = (codes[1] ?? 0) - (codes[0] ?? 0);
  if (step !== 1 && step !== -1) return false;
  return codes.every((code, i) => i === 0 || code - (codes[i - 1] ?? 0) === step);
}

const KEYBOARD_ROWS = ["`1234567890-=", "qwertyuiop[]\\", "asdfghjkl;'", "zxcvbnm,./", "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik,9ol.0p;/"];

// The most common passwords of the public breach lists (each well inside zxcvbn's first 10,000).
const COMMON = new Set([
  "password", "passw0rd", "p@ssword", "p@ssw0rd", "letmein", "welcome", "monkey", "dragon", "master", "shadow",
  "sunshine", "princess", "football", "baseball", "iloveyou", "trustno1", "superman", "batman", "starwars",
  "whatever", "freedom", "qazwsx", "michael", "jennifer", "jordan", "hunter", "ranger", "buster", "soccer",
  "hockey", "killer", "george", "charlie", "andrew", "michelle", "jessica", "pepper", "daniel", "access",
  "thomas", "mustang", "secret", "summer", "winter", "spring", "autumn", "flower", "cheese", "computer",
  "internet", "samsung", "google", "zulip", "admin", "administrator", "changeme", "default", "login",
  "foobar", "abc123", "test", "testing", "guest", "root", "user", "hello", "lovely", "loveme", "ashley",
  "bailey", "nicole", "tigger", "chelsea", "matrix", "maggie", "ginger", "hannah", "amanda", "orange",
  "banana", "purple", "silver", "yankees", "cowboys", "dallas", "austin", "phoenix", "london",
]);
