import { Option, type Command } from "commander";
import { doOperatorEmailChange } from "../actions/account.js";
import { doStartPasswordReset, sendPasswordResetMail } from "../actions/password-reset.js";
import { checkChangeRole, checkDeactivateUser, checkReactivateUser } from "../actions/users.js";
import type { AppContext } from "../context.js";
import { defaultRealm } from "../db/queries/realms.js";
import { userByDeliveryEmail, usersOfRealm, type UserRow } from "../db/queries/users.js";
import { ApiError, userDeactivated } from "../base/errors.js";
import { ROLE_NAMES } from "../lib/users/roles.js";
import { print, withContext } from "./run.js";

/** The role's name as the CLI takes and prints it. */
function roleName(role: number): string {
  return Object.entries(ROLE_NAMES).find(([, value]) => value === role)?.[0] ?? String(role);
}

/** A user of the organisation by address (system bots are not the operator's to manage). */
async function userByEmail(ctx: AppContext, email: string): Promise<UserRow> {
  const realm = await defaultRealm(ctx.db);
  if (!realm) throw new ApiError("No organisation exists yet: run create-realm first");
  const user = await userByDeliveryEmail(ctx.db, realm.id, email.trim());
  if (!user || user.is_system_bot) throw new ApiError(`No user with email ${email}`);
  return user;
}

/** What the commands print about one user. */
function summary(user: UserRow): { user_id: number; email: string; full_name: string; role: string; is_active: boolean; is_bot: boolean } {
  return { user_id: user.id, email: user.delivery_email, full_name: user.full_name, role: roleName(user.role), is_active: user.is_active === 1, is_bot: user.is_bot === 1 };
}

/**
 * The operator's commands: list users, deactivate and reactivate them, change a role, reset a
 * password, change an address. They act as an owner of the organisation would through the API,
 * with the API's checks and messages, and their changes reach a running server's clients.
 */
export function addOperatorCommands(program: Command): void {
  program
    .command("users")
    .description("list the organisation's users with their role and state")
    .option("--json", "print the result as JSON")
    .action((opts: { json?: boolean }) =>
      withContext(async (ctx) => {
        const realm = await defaultRealm(ctx.db);
        if (!realm) throw new ApiError("No organisation exists yet: run create-realm first");
        const users = (await usersOfRealm(ctx.db, realm.id)).map(summary);
        if (opts.json) {
          process.stdout.write(JSON.stringify({ users }) + "\n");
          return;
        }
        const rows = [["ID", "EMAIL", "NAME", "ROLE", "STATE"], ...users.map((u) => [String(u.user_id), u.email, u.full_name, u.is_bot ? `${u.role} (bot)` : u.role, u.is_active ? "active" : "deactivated"])];
        const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => [...row[column]!].length)));
        for (const row of rows) process.stdout.write(row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ") + "\n");
      }),
    );

  program
    .command("deactivate")
    .description("deactivate a user (and the bots the user owns); the organisation's last owner stays")
    .requiredOption("--email <email>", "the user's email address")
    .option("--json", "print the result as JSON")
    .action((opts: { email: string; json?: boolean }) =>
      withContext(async (ctx) => {
        const user = await userByEmail(ctx, opts.email);
        if (!user.is_active) throw userDeactivated();
        await checkDeactivateUser(ctx, null, user, null);
        print(summary({ ...user, is_active: 0 }), opts.json);
      }),
    );

  program
    .command("reactivate")
    .description("reactivate a deactivated user")
    .requiredOption("--email <email>", "the user's email address")
    .option("--json", "print the result as JSON")
    .action((opts: { email: string; json?: boolean }) =>
      withContext(async (ctx) => {
        const user = await userByEmail(ctx, opts.email);
        await checkReactivateUser(ctx, null, user);
        print(summary({ ...user, is_active: 1 }), opts.json);
      }),
    );

  program
    .command("set-role")
    .description("change a user's role; the organisation's last owner stays an owner")
    .requiredOption("--email <email>", "the user's email address")
    .addOption(new Option("--role <role>", "the new role").choices(Object.keys(ROLE_NAMES)).makeOptionMandatory())
    .option("--json", "print the result as JSON")
    .action((opts: { email: string; role: string; json?: boolean }) =>
      withContext(async (ctx) => {
        const user = await userByEmail(ctx, opts.email);
        const role = ROLE_NAMES[opts.role] ?? user.role;
        await checkChangeRole(ctx, null, user, role);
        print(summary({ ...user, role }), opts.json);
      }),
    );

  program
    .command("reset-password")
    .description("mail a user a one-time link to choose a new password (or print the link)")
    .requiredOption("--email <email>", "the user's email address")
    .option("--print-link", "print the link instead of mailing it")
    .option("--json", "print the result as JSON")
    .action((opts: { email: string; printLink?: boolean; json?: boolean }) =>
      withContext(async (ctx) => {
        const user = await userByEmail(ctx, opts.email);
        if (user.is_bot) throw new ApiError(`${user.delivery_email} is a bot: bots have no password (they use their API key)`);
        if (!user.is_active) throw userDeactivated();
        if (opts.printLink) {
          const link = await doStartPasswordReset(ctx, user);
          print({ user_id: user.id, email: user.delivery_email, link }, opts.json);
          return;
        }
        // "queued": the mail server did not take it now; the running server tries again for a day.
        const mail = await sendPasswordResetMail(ctx, user);
        print({ user_id: user.id, email: user.delivery_email, mail }, opts.json);
      }),
    );

  program
    .command("change-email")
    .description("change a user's email address at once (the old address is told)")
    .requiredOption("--email <email>", "the user's current email address")
    .requiredOption("--new-email <email>", "the new email address")
    .option("--json", "print the result as JSON")
    .action((opts: { email: string; newEmail: string; json?: boolean }) =>
      withContext(async (ctx) => {
        const user = await userByEmail(ctx, opts.email);
        const changed = await doOperatorEmailChange(ctx, user, opts.newEmail);
        print({ ...summary(changed), old_email: user.delivery_email }, opts.json);
      }),
    );
}
