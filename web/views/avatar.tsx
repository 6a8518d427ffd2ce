import type { State } from "../state/types.js";
import { avatarUrl, initialsBackground, initialsOf } from "./avatar-look.js";

export { sameOrigin } from "./avatar-look.js";

/** A person's picture, or their initials on a colour of their own when the picture is on another origin. */
export function Avatar({ s, userId, fallbackUrl, name, size = 36 }: { s: State; userId: number; fallbackUrl?: string | null | undefined; name: string; size?: number }) {
  const url = avatarUrl(s, userId, fallbackUrl);
  if (url !== null) return <img class="avatar" src={url} alt="" loading="lazy" width={size} height={size} />;
  return (
    <span class="avatar initials" aria-hidden="true" style={{ width: `${size}px`, height: `${size}px`, background: initialsBackground(userId) }}>
      {initialsOf(name)}
    </span>
  );
}
