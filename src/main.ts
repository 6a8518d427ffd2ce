#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=131072 node --expose-gc --min-semi-space-size=4 --max-semi-space-size=8
// How the `rookery` command (and `npm start`) runs, for a server that gives memory back after a
// burst without getting slower:
// - MALLOC_MMAP_THRESHOLD_ fixes glibc's threshold for mmap'd blocks at 128 KiB. Left dynamic, it
//   rises after the first large block is freed, and from then on scrypt's 16 MiB work areas (one
//   per thread-pool thread) and large bodies stay in malloc's arenas for good: +64 MiB after a few
//   logins.
// - V8's young generation is kept between 2×4 and 2×8 MiB. Its default floor let the memory
//   reducer shrink it to 1 MiB when the process idled, after which GET /users/me took twice the
//   scavenges for the rest of the process's life; its default ceiling (2×16 MiB) is resident
//   memory a burst leaves behind.
// - --expose-gc lets the server collect once after a burst (heap.ts, collectAfterBursts).
// First: it holds off the young generation's growth while the rest loads.
import { allowYoungGenerationGrowth, collectAfterBursts } from "./base/heap.js";
import { Command, Option } from "commander";
import { createRealm } from "./actions/realms.js";
import { backup, restore } from "./backup.js";
import { checkCreateUser } from "./actions/users.js";
import { ConfigError } from "./config.js";
import { addOperatorCommands } from "./cli/operator.js";
import { addImportSlackCommand } from "./cli/import-slack.js";
import { addExportCommand } from "./cli/export.js";
import { addImportCommand } from "./cli/import.js";
import { config, fail, print, withContext } from "./cli/run.js";
import { defaultRealm, realmByStringId } from "./db/queries/realms.js";
import { userByDeliveryEmail } from "./db/queries/users.js";
import { ApiError } from "./base/errors.js";
import { ROLE_NAMES } from "./lib/users/roles.js";
import { randomToken } from "./base/secrets.js";
import { checkFullName } from "./lib/users/users.js";
import { serve } from "./server.js";
import { isWorker, serveWorkers } from "./cluster/workers.js";

/** The `rookery` command. */
const program = new Command("rookery").description("Rookery: a team-chat server that speaks the Zulip API").showHelpAfterError();

program
  .command("serve", { isDefault: true })
  .description("run the server (the default command)")
  .option("--workers <count>", "run this many processes of one cluster (needs ROOKERY_REDIS_URL)", "1")
  .action(async (opts: { workers: string }) => {
    const count = Number(opts.workers);
    if (!/^\d+$/.test(opts.workers) || count < 1) fail(new ConfigError(`--workers must be a whole number of at least 1, got "${opts.workers}"`));
    if (count > 1 && !isWorker()) {
      await serveWorkers(config(), count).catch(fail);
      return;
    }
    const app = await serve(config());
    allowYoungGenerationGrowth();
    collectAfterBursts(() => app.ctx.metrics.answered);
  });

program
  .command("create-realm")
  .description("create an organisation and its owner")
  .requiredOption("--name <name>", "organisation name")
  .requiredOption("--owner-email <email>", "owner's email address")
  .requiredOption("--owner-name <name>", "owner's full name")
  .option("--password <password>", "owner's password (generated when omitted)")
  .option("--subdomain <subdomain>", "subdomain the organisation is served on", "")
  .option("--json", "print the result as JSON")
  .action((opts: { name: string; ownerEmail: string; ownerName: string; password?: string; subdomain: string; json?: boolean }) =>
    withContext(async (ctx) => {
      const existing = await realmByStringId(ctx.db, opts.subdomain);
      if (existing) {
        const where = opts.subdomain === "" ? "at this server's root address" : `on the subdomain "${opts.subdomain}"`;
        throw new ApiError(`An organisation already exists ${where}: "${existing.name}" (id ${existing.id}); nothing was changed. Add users to it with create-user, or pass --subdomain to create another.`);
      }
      const password = opts.password ?? randomToken(16);
      const { realm, owner } = await createRealm(ctx, {
        name: opts.name,
        stringId: opts.subdomain,
        ownerEmail: opts.ownerEmail,
        ownerName: checkFullName(opts.ownerName),
        password,
      });
      const result = { realm_id: realm.id, user_id: owner.id, email: owner.delivery_email, api_key: owner.api_key };
      print(result, opts.json, opts.password ? undefined : password);
    }),
  );

program
  .command("create-user")
  .description("create a user (or a bot) in the organisation")
  .requiredOption("--email <email>", "email address")
  .requiredOption("--name <name>", "full name")
  .addOption(new Option("--role <role>", "role").choices(Object.keys(ROLE_NAMES)).default("member"))
  .option("--bot", "create a generic bot")
  .option("--password <password>", "password (generated when omitted)")
  .option("--json", "print the result as JSON")
  .action((opts: { email: string; name: string; role: string; bot?: boolean; password?: string; json?: boolean }) =>
    withContext(async (ctx) => {
      const realm = await defaultRealm(ctx.db);
      if (!realm) throw new ApiError("No organisation exists yet: run create-realm first");
      const password = opts.bot ? null : (opts.password ?? randomToken(16));
      const user = await checkCreateUser(ctx, {
        realmId: realm.id,
        email: opts.email,
        fullName: checkFullName(opts.name),
        password,
        role: ROLE_NAMES[opts.role] ?? 400,
        ...(opts.bot ? { bot: { type: 1, ownerId: null } } : {}),
      });
      const result = { realm_id: realm.id, user_id: user.id, email: user.delivery_email, api_key: user.api_key };
      print(result, opts.json, opts.password || opts.bot ? undefined : (password ?? undefined));
    }),
  );

program
  .command("api-key")
  .description("print a user's API key")
  .requiredOption("--email <email>", "email address")
  .action((opts: { email: string }) =>
    withContext(async (ctx) => {
      const realm = await defaultRealm(ctx.db);
      const user = realm ? await userByDeliveryEmail(ctx.db, realm.id, opts.email) : undefined;
      if (!user) throw new ApiError(`No user with email ${opts.email}`);
      process.stdout.write(user.api_key + "\n");
    }),
  );

program
  .command("backup")
  .description("write the database and the data folder's files to one archive, while the server runs")
  .argument("<file>", "the archive to write (.tar.gz); it must not exist yet")
  .option("--json", "print the result as JSON")
  .action(async (file: string, opts: { json?: boolean }) => {
    const started = performance.now();
    const result = await backup(config(), file).catch(fail);
    print({ ...result, seconds: Math.round(performance.now() - started) / 1000 }, opts.json, undefined);
  });

program
  .command("restore")
  .description("fill an empty data folder (and an empty PostgreSQL database) from an archive of `rookery backup`")
  .argument("<file>", "the archive `rookery backup` wrote")
  .option("--json", "print the result as JSON")
  .action(async (file: string, opts: { json?: boolean }) => {
    const result = await restore(config(), file).catch(fail);
    print(result, opts.json, undefined);
  });

addOperatorCommands(program);
addImportSlackCommand(program);
addExportCommand(program);
addImportCommand(program);

program.parseAsync().catch(fail);
