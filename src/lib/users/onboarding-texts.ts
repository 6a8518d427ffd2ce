/**
 * What Zulip 9.0 (feature level 277) gives a new organisation and a new user, as data: its
 * initial channels, the Welcome Bot's first messages and the signup notice. The English texts are
 * Zulip's (zerver/actions/create_realm.py do_create_realm, zerver/lib/onboarding.py,
 * zerver/actions/create_user.py); clients and users see them as they are.
 */

/** Zulip's Realm.DEFAULT_NOTIFICATION_STREAM_NAME: public, default, and where announcements go. */
export const GENERAL_CHANNEL = {
  name: "general",
  description: "Everyone is added to this stream by default. Welcome! :octopus:",
} as const;

/** Zulip's Realm.INITIAL_PRIVATE_STREAM_NAME: private, the owner's, and where signups are announced. */
export const CORE_TEAM_CHANNEL = {
  name: "core team",
  description: "A private stream for core team members.",
} as const;

/** Zulip's Realm.ZULIP_UPDATE_ANNOUNCEMENTS_TOPIC_NAME. */
export const ZULIP_UPDATES_TOPIC = "Zulip updates";

/** The topic of the signup notices (send_message_to_signup_notification_stream). */
export const SIGNUPS_TOPIC = "signups";

/** One of the Welcome Bot's messages in a new organisation's channels. */
export interface InitialMessage {
  channel: string;
  topic: string;
  content: string;
}

/**
 * send_initial_realm_messages, in Zulip's order. Zulip's own string literal continues a line
 * with a backslash inside the quotes, so the turtle message keeps that line's indentation.
 */
export const INITIAL_REALM_MESSAGES: readonly InitialMessage[] = [
  {
    channel: CORE_TEAM_CHANNEL.name,
    topic: "private channels",
    content:
      "This is a private channel, as indicated by the lock icon next to the channel name. " +
      "Private channels are only visible to channel members.\n\n" +
      `To manage this channel, go to [Channel settings](#channels/subscribed) and click on \`${CORE_TEAM_CHANNEL.name}\`.`,
  },
  {
    channel: GENERAL_CHANNEL.name,
    topic: "topic demonstration",
    content: `This is a message on channel #**${GENERAL_CHANNEL.name}** with the topic \`topic demonstration\`.`,
  },
  {
    channel: GENERAL_CHANNEL.name,
    topic: "topic demonstration",
    content:
      "Topics are a lightweight tool to keep conversations organized. " +
      "You can learn more about topics at [Introduction to topics](/help/introduction-to-topics).",
  },
  {
    channel: GENERAL_CHANNEL.name,
    topic: "swimming turtles",
    content:
      `This is a message on channel #**${GENERAL_CHANNEL.name}** with the topic \`swimming turtles\`.\n\n` +
      "[](/static/images/cute/turtle.png)\n\n" +
      `[Start a new topic](/help/introduction-to-topics#how-to-start-a-new-topic) any time you're not replying to a ${" ".repeat(12)}previous message.`,
  },
  {
    channel: GENERAL_CHANNEL.name,
    topic: ZULIP_UPDATES_TOPIC,
    content:
      "Welcome! To help you learn about new features and configuration options, " +
      "this topic will receive messages about important changes in Zulip.\n\n" +
      "You can read these update messages whenever it's convenient, or " +
      "[mute](/help/mute-a-topic) this topic if you are not interested. " +
      "If your organization does not want to receive these announcements, " +
      "they can be disabled. [Learn more](/help/configure-automated-notices#zulip-update-announcements).",
  },
];

/** The emoji the Welcome Bot reacts with to the message that shows the turtle. */
export const TURTLE_REACTION = { messageMarker: "cute/turtle.png", emojiName: "turtle" } as const;

/** Zulip's Realm.ORG_TYPES ids of education organisations, whose welcome points to the class guides. */
const EDUCATION_ORG_TYPES: ReadonlySet<number> = new Set([30, 35]);

/** Who the Welcome Bot greets: the guides it points to depend on these. */
export interface Greeted {
  realmUrl: string;
  orgType: number;
  isAdmin: boolean;
}

/** The Welcome Bot's direct message to a new user (send_initial_direct_message; no demo organisations here). */
export function welcomeDirectMessage(who: Greeted): string {
  const base = who.realmUrl.replace(/\/+$/, "");
  const education = EDUCATION_ORG_TYPES.has(who.orgType);
  const gettingStarted = education
    ? `If you are new to Zulip, check out our [Using Zulip for a class guide](${base}/help/using-zulip-for-a-class)!`
    : `If you are new to Zulip, check out our [Getting started guide](${base}/help/getting-started-with-zulip)!`;
  const setup = !who.isAdmin
    ? ""
    : education
      ? ` We also have a guide for [Setting up Zulip for a class](${base}/help/setting-up-zulip-for-a-class).`
      : ` We also have a guide for [Setting up your organization](${base}/help/getting-your-organization-started-with-zulip).`;
  return (
    "Hello, and welcome to Zulip!👋 This is a direct message from me, Welcome Bot.\n\n" +
    `${gettingStarted}${setup}\n\n` +
    "I can also help you get set up! Just click anywhere on this message or press `r` to reply.\n\n" +
    `Here are a few messages I understand: ${WELCOME_BOT_COMMANDS.map((c) => `\`${c}\``).join(", ")}.`
  );
}

/** The Welcome Bot's commands as its messages list them (bot_commands). */
const WELCOME_BOT_COMMANDS = ["apps", "profile", "theme", "channels", "topics", "message formatting", "keyboard shortcuts", "help"];

/** Notification Bot's notice in the signup announcements channel (notify_new_user). */
export function joinedNotice(user: { id: number; full_name: string }): string {
  return `@_**${user.full_name}|${user.id}** joined this organization.`;
}
