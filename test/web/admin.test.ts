/**
 * Administration in the browser (Debian's Chromium): Iago (an administrator) creates, edits,
 * reorders and deletes custom profile fields and edits a linkifier; Desdemona (the owner) sees each
 * change in her browser without reloading, and King Hamlet (a member) sees the new field in his
 * profile; the member is refused the same actions in the page and by the server.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWeb } from "../../web/build.js";
import { startServer, type TestServer } from "../harness/server.js";
import { NO_CHROMIUM, hasChromium, jsonCall, launch, logIn, openPage, screenshotDir } from "./browser.js";

if (!hasChromium) console.log(NO_CHROMIUM);

describe.skipIf(!hasChromium)("administration: custom profile fields and linkifiers", () => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let iago: Page;
  let desdemona: Page;
  let hamlet: Page;
  const errors: string[] = [];
  /** Refusals the tests cause on purpose (the page records every HTTP error). */
  const expected: string[] = [];
  const webDir = mkdtempSync(path.join(tmpdir(), "rookery-web-admin-"));
  const shots = screenshotDir();

  const go = async (page: Page, hash: string) => {
    await page.evaluate((h) => (location.hash = h), hash);
    await page.locator(".settings-main").waitFor();
  };
  const fieldNames = async () => ((await server.as("iago").get("/realm/profile_fields")).body.custom_fields as { name: string }[]).map((f) => f.name);
  const fieldId = async (name: string) => ((await server.as("iago").get("/realm/profile_fields")).body.custom_fields as { id: number; name: string }[]).find((f) => f.name === name)?.id ?? 0;
  const rows = (page: Page) => page.locator(".profile-field-list > li strong");

  beforeAll(async () => {
    await buildWeb(webDir);
    server = await startServer({ webDir });
    browser = await launch();
    for (let i = 0; i < 3; i++) contexts.push(await browser.newContext({ viewport: { width: 1400, height: 1024 } }));
    iago = await openPage(contexts[0]!, errors);
    desdemona = await openPage(contexts[1]!, errors);
    hamlet = await openPage(contexts[2]!, errors);
    await logIn(iago, server.url, server.users.iago.delivery_email, server.password);
    await logIn(desdemona, server.url, server.users.desdemona.delivery_email, server.password);
    await logIn(hamlet, server.url, server.users.hamlet.delivery_email, server.password);
  }, 90000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
    rmSync(webDir, { recursive: true, force: true });
  });

  it("custom profile fields: created, renamed, reordered and deleted, seen live in another administrator's browser and in a member's profile", async () => {
    await go(iago, "#organization/profile-field-settings");
    await go(desdemona, "#organization/profile-field-settings");
    await go(hamlet, "#settings/profile");
    const before = await fieldNames();

    const add = async (type: string, label: string, hint: string) => {
      await iago.getByLabel("Field type").selectOption({ label: type });
      await iago.getByLabel("Label", { exact: true }).fill(label);
      await iago.getByLabel("Hint", { exact: true }).fill(hint);
      await iago.getByRole("button", { name: "Add profile field" }).click();
      await iago.getByText("Added").waitFor();
    };
    await add("Short text", "Favourite play", "Which one?");
    expect(await fieldNames()).toEqual([...before, "Favourite play"]);
    const created = ((await server.as("iago").get("/realm/profile_fields")).body.custom_fields as Record<string, unknown>[]).at(-1);
    expect(created).toMatchObject({ name: "Favourite play", hint: "Which one?", type: 1 });
    await expect.poll(async () => (await rows(desdemona).allTextContents()).at(-1)).toBe("Favourite play");
    await hamlet.getByLabel("Favourite play").waitFor();

    await add("Long text", "Sonnet", "");
    await expect.poll(fieldNames).toEqual([...before, "Favourite play", "Sonnet"]);
    await iago.getByRole("button", { name: "Move Sonnet up" }).click();
    await expect.poll(fieldNames).toEqual([...before, "Sonnet", "Favourite play"]);
    await expect.poll(async () => (await rows(desdemona).allTextContents()).slice(-2)).toEqual(["Sonnet", "Favourite play"]);
    // The last field cannot move down; the first cannot move up. (Iago's list redraws from the
    // event, which may reach his page after Desdemona's.)
    await expect.poll(() => iago.getByRole("button", { name: "Move Favourite play down" }).isDisabled()).toBe(true);

    await iago.getByLabel("Label of Favourite play").fill("Favourite tragedy");
    await iago.locator("form").filter({ has: iago.getByLabel("Label of Favourite play") }).getByRole("button", { name: "Save" }).click();
    await expect.poll(fieldNames).toContain("Favourite tragedy");
    await expect.poll(async () => (await rows(desdemona).allTextContents()).at(-1)).toBe("Favourite tragedy");
    await hamlet.getByLabel("Favourite tragedy").waitFor();
    await iago.getByLabel("Hint of Favourite tragedy").fill("Hamlet, surely");
    await iago.locator("form").filter({ has: iago.getByLabel("Hint of Favourite tragedy") }).getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => ((await server.as("iago").get("/realm/profile_fields")).body.custom_fields as Record<string, unknown>[]).find((f) => f.name === "Favourite tragedy")?.hint).toBe("Hamlet, surely");
    await iago.screenshot({ path: path.join(shots, "admin-profile-fields.png") });

    // A field without a label: the server's message, shown as it comes.
    await iago.getByLabel("Field type").selectOption({ label: "Short text" });
    await iago.getByLabel("Label", { exact: true }).fill("");
    await iago.getByRole("button", { name: "Add profile field" }).click();
    await iago.getByText("Label cannot be blank.").waitFor();
    expected.push("POST /json/realm/profile_fields: 400");

    // A list of options: its choices, one per line, become field_data; none is refused with the server's message.
    await iago.getByLabel("Field type").selectOption({ label: "List of options" });
    await iago.getByLabel("Label", { exact: true }).fill("House");
    await iago.getByRole("button", { name: "Add profile field" }).click();
    await iago.getByText("Field must have at least one choice.").waitFor();
    expected.push("POST /json/realm/profile_fields: 400");
    await iago.getByLabel("Options, one per line").fill("Elsinore\n\n Wittenberg ");
    await iago.getByRole("button", { name: "Add profile field" }).click();
    await expect.poll(fieldNames).toContain("House");
    const house = ((await server.as("iago").get("/realm/profile_fields")).body.custom_fields as Record<string, unknown>[]).find((f) => f.name === "House");
    expect(house).toMatchObject({ type: 3 });
    expect(JSON.parse(String(house?.field_data))).toEqual({ "0": { text: "Elsinore", order: "1" }, "1": { text: "Wittenberg", order: "2" } });
    await hamlet.getByLabel("House").waitFor();
    await iago.getByRole("button", { name: "Delete House" }).click();
    await expect.poll(fieldNames).not.toContain("House");

    await iago.getByRole("button", { name: "Delete Sonnet" }).click();
    await expect.poll(fieldNames).not.toContain("Sonnet");
    await expect.poll(() => rows(desdemona).getByText("Sonnet", { exact: true }).count()).toBe(0);
  }, 60000);

  it("custom profile fields: refused to a member in the page and by the server", async () => {
    await go(hamlet, "#organization/profile-field-settings");
    await hamlet.getByText("Only organization administrators can change these settings.").waitFor();
    expect(await hamlet.getByRole("button", { name: "Add profile field" }).count()).toBe(0);
    const id = await fieldId("Favourite tragedy");
    const refusals = [
      await jsonCall(hamlet, "POST", "realm/profile_fields", { name: "Mine", field_type: "1" }),
      await jsonCall(hamlet, "PATCH", `realm/profile_fields/${id}`, { name: "Mine" }),
      await jsonCall(hamlet, "PATCH", "realm/profile_fields", { order: [id] }),
      await jsonCall(hamlet, "DELETE", `realm/profile_fields/${id}`, {}),
    ];
    for (const r of refusals) expect(r).toEqual({ result: "error", code: "UNAUTHORIZED_PRINCIPAL", msg: "Must be an organization administrator" });
    expected.push(...["POST", "PATCH", "PATCH", "DELETE"].map((m, i) => `${m} /json/realm/profile_fields${i === 0 || i === 2 ? "" : `/${id}`}: 400`));
    expect(await fieldNames()).toContain("Favourite tragedy");
  });

  it("linkifiers: edited in place, seen live in another administrator's browser; a bad pattern shows the server's message; refused to a member", async () => {
    const added = await jsonCall(iago, "POST", "realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://trac.example.com/ticket/{id}" });
    expect(added.result).toBe("success");
    const id = Number(added.id);
    await go(iago, "#organization/linkifier-settings");
    await go(desdemona, "#organization/linkifier-settings");
    await desdemona.getByText("https://trac.example.com/ticket/{id}").waitFor();

    await iago.getByRole("button", { name: "Edit linkifier #(?P<id>[0-9]+)" }).click();
    const form = iago.getByRole("form", { name: "Edit linkifier #(?P<id>[0-9]+)" });
    await form.getByLabel("URL template").fill("https://bugs.example.com/{id}");
    await form.getByRole("button", { name: "Save linkifier" }).click();
    await expect.poll(async () => (await server.as("iago").get("/realm/linkifiers")).body.linkifiers).toEqual([{ id, pattern: "#(?P<id>[0-9]+)", url_template: "https://bugs.example.com/{id}" }]);
    await desdemona.getByText("https://bugs.example.com/{id}").waitFor();
    expect(await desdemona.getByText("https://trac.example.com/ticket/{id}").count()).toBe(0);

    await iago.getByRole("button", { name: "Edit linkifier #(?P<id>[0-9]+)" }).click();
    await form.getByLabel("Pattern").fill("#(?P<id>[0-9]+");
    await form.getByRole("button", { name: "Save linkifier" }).click();
    const refusedPattern = await jsonCall(iago, "PATCH", `realm/filters/${id}`, { pattern: "#(?P<id>[0-9]+", url_template: "https://bugs.example.com/{id}" });
    expect(refusedPattern.result).toBe("error");
    await form.getByText(String(refusedPattern.msg)).waitFor();
    expected.push(`PATCH /json/realm/filters/${id}: 400`, `PATCH /json/realm/filters/${id}: 400`);
    await form.getByRole("button", { name: "Cancel" }).click();

    const refused = await jsonCall(hamlet, "PATCH", `realm/filters/${id}`, { pattern: "#(?P<id>[0-9]+)", url_template: "https://mine.example.com/{id}" });
    expect(refused).toEqual({ result: "error", code: "UNAUTHORIZED_PRINCIPAL", msg: "Must be an organization administrator" });
    expected.push(`PATCH /json/realm/filters/${id}: 400`);
    await go(hamlet, "#organization/linkifier-settings");
    await hamlet.getByText("Only organization administrators can change these settings.").waitFor();
    expect(await hamlet.getByRole("button", { name: /^Edit linkifier/ }).count()).toBe(0);
  });

  it("bots: a member creates one, sees and regenerates its API key; an administrator deactivates it, its owner reactivates it, each seen live in the other's browser; refused as the server says", async () => {
    await go(hamlet, "#settings/your-bots");
    await go(iago, "#organization/bots");
    await hamlet.getByText("Hamlet's bot", { exact: true }).waitFor();
    await hamlet.getByLabel("Bot type").selectOption({ label: "Generic bot" });
    await hamlet.getByLabel("Bot name").fill("Yorick");
    await hamlet.getByLabel("Bot email (before -bot@)").fill("yorick");
    await hamlet.getByRole("button", { name: "Create bot" }).click();
    await hamlet.getByText("Bot added").waitFor();
    const listed = async () => ((await server.as("hamlet").get("/bots", {}, { validate: false })).body.bots as { full_name: string; api_key: string; username: string }[]).find((b) => b.full_name === "Yorick");
    const made = await listed();
    expect(made?.username).toBe(`yorick-bot@${new URL(server.url).hostname}`);
    const id = Number((await server.as("hamlet").get(`/users/${encodeURIComponent(made?.username ?? "")}`)).body.user.user_id);
    await iago.getByRole("row", { name: /Yorick/ }).getByText("King Hamlet").waitFor();

    await hamlet.getByRole("button", { name: "Show the API key of Yorick" }).click();
    expect(await hamlet.getByLabel("API key of Yorick").textContent()).toBe(made?.api_key);
    await hamlet.getByRole("button", { name: "Regenerate the API key of Yorick" }).click();
    await hamlet.getByText("New API key made").waitFor();
    const fresh = (await listed())?.api_key;
    expect(fresh).not.toBe(made?.api_key);
    await expect.poll(() => hamlet.getByLabel("API key of Yorick").textContent()).toBe(fresh);
    await hamlet.screenshot({ path: path.join(shots, "settings-your-bots.png") });

    await iago.getByRole("row", { name: /Yorick/ }).getByRole("button", { name: "Deactivate Yorick" }).click();
    await expect.poll(async () => (await server.as("hamlet").get(`/users/${id}`)).body.user.is_active).toBe(false);
    await hamlet.getByText("(Generic bot, deactivated)").waitFor();
    await hamlet.getByRole("button", { name: "Reactivate Yorick" }).click();
    await expect.poll(async () => (await server.as("hamlet").get(`/users/${id}`)).body.user.is_active).toBe(true);
    await iago.getByRole("row", { name: /Yorick/ }).getByRole("button", { name: "Deactivate Yorick" }).waitFor();
    await iago.screenshot({ path: path.join(shots, "admin-bots.png") });

    // Refused: another member's bot, by the server; a member creating what bot_creation_policy keeps to administrators, in the page and by the server.
    expect((await server.as("othello").delete(`/bots/${id}`, {}, { validate: false })).body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Insufficient permission" });
    expect((await server.as("iago").patch("/realm", { bot_creation_policy: 2 })).body).toMatchObject({ result: "success" });
    await expect.poll(() => hamlet.getByLabel("Bot type").locator("option").allTextContents()).toEqual(["Incoming webhook"]);
    expect((await server.as("hamlet").post("/bots", { full_name: "Osric", short_name: "osric" }, { validate: false })).body).toEqual({ result: "error", code: "UNAUTHORIZED_PRINCIPAL", msg: "Must be an organization administrator" });
    expect((await server.as("iago").patch("/realm", { bot_creation_policy: 3 })).body).toMatchObject({ result: "success" });
    await hamlet.getByText("Only organization administrators can add bots.").waitFor();
    expect(await hamlet.getByRole("button", { name: "Create bot" }).count()).toBe(0);
    expect((await server.as("hamlet").post("/bots", { full_name: "Osric", short_name: "osric", bot_type: 2 }, { validate: false })).body).toEqual({ result: "error", code: "UNAUTHORIZED_PRINCIPAL", msg: "Must be an organization administrator" });
    expect((await server.as("iago").patch("/realm", { bot_creation_policy: 1 })).body).toMatchObject({ result: "success" });
    await hamlet.getByRole("button", { name: "Create bot" }).waitFor();
    await go(hamlet, "#organization/bots");
    await hamlet.getByText("Only organization administrators can change these settings.").waitFor();
    expect(await hamlet.getByRole("button", { name: "Deactivate Yorick" }).count()).toBe(0);
  }, 60000);

  it("drew no console errors beyond the refusals made on purpose", () => {
    const left = [...errors];
    for (const e of expected) {
      const i = left.indexOf(e);
      expect(i, e).toBeGreaterThanOrEqual(0);
      left.splice(i, 1);
    }
    // Chromium reports each refused fetch a second time as a console error naming the status.
    expect(left.filter((e) => !/Failed to load resource: the server responded with a status of 400/.test(e))).toEqual([]);
  });
});
