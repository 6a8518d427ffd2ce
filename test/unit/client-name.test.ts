import { describe, expect, it } from "vitest";
import { clientFromUserAgent, requestClient } from "../../src/http/client-name.js";

const chromium = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";

describe("the client a request names", () => {
  it("is the User-Agent's product for the API", () => {
    expect(clientFromUserAgent(chromium)).toBe("Mozilla");
    expect(requestClient({ url: "/api/v1/messages", headers: { "user-agent": chromium } })).toBe("Mozilla");
    expect(requestClient({ url: "/api/v1/messages", headers: { "user-agent": "ZulipMobile/27.1 (Android 14)" } })).toBe("ZulipMobile");
    expect(requestClient({ url: "/api/v1/messages", headers: {} })).toBe("Unspecified");
  });

  it("is website for a browser calling /json, and the app's own name for Zulip's apps", () => {
    expect(requestClient({ url: "/json/messages", headers: { "user-agent": chromium } })).toBe("website");
    expect(requestClient({ url: "/json/messages", headers: { "user-agent": "ZulipElectron/5.11.1 Mozilla/5.0" } })).toBe("ZulipElectron");
    expect(requestClient({ url: "/json/messages", headers: {} })).toBe("Unspecified");
  });
});
