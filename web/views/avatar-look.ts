/** What a person's avatar shows (shared by avatar.tsx and the page's first draw, first-draw.ts). */
import type { State } from "../state/types.js";

/** A URL the page may load: same origin only (the Content-Security-Policy refuses the rest, gravatar included). */
export function sameOrigin(url: string | null | undefined): url is string {
  if (!url) return false;
  try {
    return new URL(url, location.href).origin === location.origin;
  } catch {
    return false;
  }
}

/** Whether an avatar URL can be shown (sameOrigin, and not a system bot's /static/images/ path), remembered per URL. */
const showable = new Map<string, boolean>();
function canShow(url: string | null | undefined): url is string {
  if (!url) return false;
  let ok = showable.get(url);
  if (ok === undefined) {
    ok = sameOrigin(url) && !new URL(url, location.href).pathname.startsWith("/static/images/");
    if (showable.size > 5000) showable.clear();
    showable.set(url, ok);
  }
  return ok;
}

/** The picture to show for a person, or null for their initials (a picture on another origin, or a system bot's). */
export function avatarUrl(s: State, userId: number, fallbackUrl?: string | null): string | null {
  const url = s.users.get(userId)?.avatar_url ?? fallbackUrl;
  // System bots' pictures live at Zulip's /static/images/ paths, which this server does not have.
  return canShow(url) ? url : null;
}

/**
 * hsl(h 45% 34%) for the hues 210, 15, 140, 280, 35, 185, 330 and 95, written as the browser
 * writes them back (a style set from script reads back as rgb()): the page's first draw writes
 * the style attribute as text, and the app's must read the same.
 */
const backgrounds = ["rgb(48, 87, 126)", "rgb(126, 67, 48)", "rgb(48, 126, 74)", "rgb(100, 48, 126)", "rgb(126, 93, 48)", "rgb(48, 119, 126)", "rgb(126, 48, 87)", "rgb(80, 126, 48)"];

/** The colour behind a person's initials. */
export const initialsBackground = (userId: number) => backgrounds[userId % backgrounds.length] ?? "rgb(48, 87, 126)";

/** Up to two initials of a name. */
export function initialsOf(name: string): string {
  return name
    .split(/[\s,]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]?.toUpperCase() ?? "")
    .join("");
}
