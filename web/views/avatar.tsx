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

const hues = [210, 15, 140, 280, 35, 185, 330, 95];

/** A person's picture, or their initials on a colour of their own when the picture is on another origin. */
export function Avatar({ s, userId, fallbackUrl, name, size = 36 }: { s: State; userId: number; fallbackUrl?: string | null | undefined; name: string; size?: number }) {
  const url = s.users.get(userId)?.avatar_url ?? fallbackUrl;
  // System bots' pictures live at Zulip's /static/images/ paths, which this server does not have.
  if (canShow(url)) return <img class="avatar" src={url} alt="" loading="lazy" width={size} height={size} />;
  const initials = name
    .split(/[\s,]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]?.toUpperCase() ?? "")
    .join("");
  return (
    <span class="avatar initials" aria-hidden="true" style={{ width: `${size}px`, height: `${size}px`, background: `hsl(${hues[userId % hues.length]} 45% 34%)` }}>
      {initials}
    </span>
  );
}
