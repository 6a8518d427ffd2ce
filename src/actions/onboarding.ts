import type { AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { realmById, updateRealm, type RealmRow } from "../db/queries/realms.js";
import { addDefaultStream, streamById, type StreamRow } from "../db/queries/streams.js";
import { hasOtherActiveHuman, systemBotOf, type UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { emojiDataFor } from "../lib/realm/emoji-check.js";
import {
  CORE_TEAM_CHANNEL,
  GENERAL_CHANNEL,
  INITIAL_REALM_MESSAGES,
  joinedNotice,
  SIGNUPS_TOPIC,
  TURTLE_REACTION,
  welcomeDirectMessage,
} from "../lib/users/onboarding-texts.js";
import { realmProp, realmProps } from "../lib/realm/props.js";
import { isAdmin } from "../lib/users/roles.js";
import { WELCOME_BOT } from "../db/system-bots.js";
import { internalSendDirect, internalSendStream } from "./notification-bot.js";
import { doAddReaction } from "./reactions.js";
import { doCreateStreamIn, type NewStream } from "./streams.js";
import { bulkAddSubscriptions } from "./subscriptions.js";

/**
 * Gives a new organisation what Zulip 9.0 gives it (do_create_realm, then do_create_user with
 * realm_creation): #general (public, default, where new channels and Zulip updates are announced)
 * and #core team (private, where signups are announced); the owner subscribed to both; the Welcome
 * Bot's direct message to the owner, then its messages in both channels and its turtle reaction.
 * Runs inside the realm's creation, when only the owner could hear its events.
 */
export async function setUpNewRealm(ctx: AppContext, tx: Db, outbox: Outbox, realmId: number, owner: UserRow): Promise<void> {
  const general = await doCreateStreamIn(ctx, tx, outbox, realmId, null, initialChannel(GENERAL_CHANNEL, false));
  const coreTeam = await doCreateStreamIn(ctx, tx, outbox, realmId, null, initialChannel(CORE_TEAM_CHANNEL, true));
  await addDefaultStream(tx, realmId, general.id);
  const realm = await mustRealm(tx, realmId);
  const props = {
    ...realmProps(realm),
    new_stream_announcements_stream_id: general.id,
    signup_announcements_stream_id: coreTeam.id,
    zulip_update_announcements_stream_id: general.id,
  };
  await updateRealm(tx, realmId, { props: JSON.stringify(props) });

  // The owner joins like any new user (the default channels, then the welcome), then the
  // private channel, then the organisation's first messages arrive.
  await bulkAddSubscriptions(tx, outbox, [owner], [general]);
  await internalSendDirect(ctx, tx, outbox, owner, welcomeDirectMessage(greeted(ctx, realm, owner)), WELCOME_BOT);
  await bulkAddSubscriptions(tx, outbox, [owner], [coreTeam]);
  const byName = new Map<string, StreamRow>([
    [general.name, general],
    [coreTeam.name, coreTeam],
  ]);
  for (const message of INITIAL_REALM_MESSAGES) {
    const stream = byName.get(message.channel);
    if (!stream) throw new Error(`no initial channel named ${message.channel}`);
    const id = await internalSendStream(ctx, tx, outbox, stream, message.topic, message.content, { from: WELCOME_BOT });
    if (message.content.includes(TURTLE_REACTION.messageMarker)) await reactWithTurtle(tx, outbox, realmId, { id, stream_id: stream.id });
  }
}

/**
 * What Zulip 9.0 does for a new human account once its channels are set (process_new_human_user):
 * Notification Bot announces it in the signup announcements channel unless it is the
 * organisation's first user, then the Welcome Bot writes to it.
 */
export async function welcomeNewUser(ctx: AppContext, tx: Db, outbox: Outbox, user: UserRow): Promise<void> {
  const realm = await mustRealm(tx, user.realm_id);
  const signups = await signupAnnouncementsStream(tx, realm);
  if (signups && (await hasOtherActiveHuman(tx, user.realm_id, user.id))) await internalSendStream(ctx, tx, outbox, signups, SIGNUPS_TOPIC, joinedNotice(user));
  await internalSendDirect(ctx, tx, outbox, user, welcomeDirectMessage(greeted(ctx, realm, user)), WELCOME_BOT);
}

function initialChannel(channel: { name: string; description: string }, inviteOnly: boolean): NewStream {
  return {
    name: channel.name,
    description: channel.description,
    inviteOnly,
    isWebPublic: false,
    historyPublicToSubscribers: null,
    // Zulip's STREAM_POST_POLICY_EVERYONE.
    streamPostPolicy: 1,
    messageRetentionDays: null,
    canRemoveSubscribersGroup: null,
  };
}

function greeted(ctx: AppContext, realm: RealmRow, user: UserRow): { realmUrl: string; orgType: number; isAdmin: boolean } {
  const orgType = realmProp(realm, "org_type");
  return { realmUrl: ctx.config.externalUrl, orgType: typeof orgType === "number" ? orgType : 0, isAdmin: isAdmin(user) };
}

async function reactWithTurtle(tx: Db, outbox: Outbox, realmId: number, message: { id: number; stream_id: number }): Promise<void> {
  const bot = await systemBotOf(tx, realmId, WELCOME_BOT.email);
  if (!bot) throw new Error(`realm ${realmId} has no ${WELCOME_BOT.fullName}`);
  const emoji = await emojiDataFor(tx, realmId, TURTLE_REACTION.emojiName);
  await doAddReaction(tx, outbox, bot, message, { name: TURTLE_REACTION.emojiName, ...emoji });
}

/** The realm's signup announcements channel, when it names an active one. */
async function signupAnnouncementsStream(tx: Db, realm: RealmRow): Promise<StreamRow | undefined> {
  const id = realmProp(realm, "signup_announcements_stream_id");
  if (typeof id !== "number" || id < 0) return undefined;
  const stream = await streamById(tx, id);
  return stream && stream.realm_id === realm.id && stream.deactivated === 0 ? stream : undefined;
}

async function mustRealm(tx: Db, realmId: number): Promise<RealmRow> {
  const realm = await realmById(tx, realmId);
  if (!realm) throw new Error(`realm ${realmId} vanished`);
  return realm;
}
