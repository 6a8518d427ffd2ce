/** The settings and organisation panel (a lazy chunk): a side menu of sections, the open section beside it. */
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import type { Route } from "../../state/narrow.js";
import type { State } from "../../state/types.js";
import { useStateOf } from "../select.js";
import { Invites, OrgProfile, RealmSettings, Users } from "./admin.js";
import { Bots, YourBots } from "./bots.js";
import { CustomEmoji, DefaultChannels, Linkifiers, Playgrounds, ProfileFields, UserGroups } from "./admin-lists.js";
import { ChannelList, ChannelSettings, isAdmin } from "./channels.js";
import { Account, AlertWords, MutedUsers, Notifications, Preferences, Profile, Status } from "./personal.js";

type Page = { slug: string; title: string; draw: (s: State, id?: number) => ComponentChildren };

const personal: Page[] = [
  { slug: "profile", title: "Profile", draw: (s) => <Profile s={s} /> },
  { slug: "account-and-privacy", title: "Account & privacy", draw: (s) => <Account s={s} /> },
  { slug: "preferences", title: "Preferences", draw: (s) => <Preferences s={s} /> },
  { slug: "notifications", title: "Notifications", draw: (s) => <Notifications s={s} /> },
  { slug: "status", title: "Status", draw: (s) => <Status s={s} /> },
  { slug: "alert-words", title: "Alert words", draw: (s) => <AlertWords s={s} /> },
  { slug: "muted-users", title: "Muted users", draw: (s) => <MutedUsers s={s} /> },
  { slug: "your-bots", title: "Bots", draw: (s) => <YourBots s={s} /> },
  { slug: "channels", title: "Channels", draw: (s, id) => (id ? <ChannelSettings s={s} streamId={id} /> : <ChannelList s={s} />) },
];

const organization: Page[] = [
  { slug: "organization-profile", title: "Organization profile", draw: (s) => <OrgProfile s={s} /> },
  { slug: "organization-settings", title: "Organization settings", draw: (s) => <RealmSettings s={s} page="settings" /> },
  { slug: "organization-permissions", title: "Organization permissions", draw: (s) => <RealmSettings s={s} page="permissions" /> },
  { slug: "users", title: "Users", draw: (s) => <Users s={s} /> },
  { slug: "deactivated", title: "Deactivated users", draw: (s) => <Users s={s} deactivated /> },
  { slug: "bots", title: "Bots", draw: (s) => <Bots s={s} /> },
  { slug: "invites", title: "Invitations", draw: (s) => <Invites s={s} /> },
  { slug: "user-groups", title: "User groups", draw: (s) => <UserGroups s={s} /> },
  { slug: "emoji-settings", title: "Custom emoji", draw: (s) => <CustomEmoji s={s} /> },
  { slug: "profile-field-settings", title: "Custom profile fields", draw: (s) => <ProfileFields s={s} /> },
  { slug: "linkifier-settings", title: "Linkifiers", draw: (s) => <Linkifiers s={s} /> },
  { slug: "playground-settings", title: "Code playgrounds", draw: (s) => <Playgrounds s={s} /> },
  { slug: "default-channels-list", title: "Default channels", draw: (s) => <DefaultChannels s={s} /> },
];

/** The whole panel for a #settings/... or #organization/... route. */
export function Panel({ route }: { route: Extract<Route, { view: "settings" | "organization" }> }) {
  const s = useStateOf((st) => [st.settings, st.users, st.realm, st.subs, st.streams, st.alertWords, st.mutedUsers, st.userStatus, st.profileFields, st.groups, st.realmEmoji, st.bots]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    document.querySelector('.settings-nav [aria-current="page"]')?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [route.view, route.section]);
  useEffect(() => {
    // Escape leaves settings for the messages, as in Zulip (unless a dialog or menu takes it first).
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented && !document.querySelector(".overlay")) location.hash = "#inbox";
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);
  if (!s) return null;
  const admin = isAdmin(s);
  const pages = route.view === "settings" ? personal : organization;
  const page = pages.find((p) => p.slug === route.section) ?? pages[0];
  return (
    <div class="settings-page">
      <h1 class="visually-hidden">{route.view === "settings" ? "Settings" : "Organization settings"}</h1>
      <nav class="settings-nav" aria-label="Settings sections">
        <a class="close-settings" href="#inbox">
          ← Back to messages
        </a>
        <h2>Personal settings</h2>
        <ul>
          {personal.map((p) => (
            <li key={p.slug}>
              <a href={`#settings/${p.slug}`} aria-current={route.view === "settings" && page === p ? "page" : undefined}>
                {p.title}
              </a>
            </li>
          ))}
        </ul>
        {admin && (
          <>
            <h2>Organization settings</h2>
            <ul>
              {organization.map((p) => (
                <li key={p.slug}>
                  <a href={`#organization/${p.slug}`} aria-current={route.view === "organization" && page === p ? "page" : undefined}>
                    {p.title}
                  </a>
                </li>
              ))}
            </ul>
          </>
        )}
      </nav>
      <div class="settings-main">
        <h2 id="settings-heading" tabIndex={-1} ref={heading}>
          {page?.title}
        </h2>
        {route.view === "organization" && !admin ? (
          <p class="note error" role="alert">
            Only organization administrators can change these settings.
          </p>
        ) : (
          page?.draw(s, route.id)
        )}
      </div>
    </div>
  );
}
