import type { Json } from "../harness/client.js";
import type { TestServer } from "../harness/server.js";

/** Every user group of the fixture organisation, by name → id (the system groups, at first). */
export async function groupIdsByName(server: TestServer): Promise<Record<string, number>> {
  const res = await server.as("hamlet").get("/user_groups");
  return Object.fromEntries(res.body.user_groups.map((g: Json) => [g.name, g.id]));
}

/** The id of the group named `name`, as GET /user_groups lists it. */
export async function groupIdOf(server: TestServer, name: string): Promise<number> {
  const id = (await groupIdsByName(server))[name];
  if (id === undefined) throw new Error(`no user group named ${name}`);
  return id;
}
