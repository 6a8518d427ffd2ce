import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { streamEmailAddress } from "../../src/lib/channels/streams.js";

const TOKEN = "af64447e9e39374841063747ade8e6b0";
const address = (name: string, domain = "testserver") => streamEmailAddress({ name, email_token: TOKEN }, domain);

describe("streamEmailAddress (Zulip's encode_email_address with show_sender)", () => {
  it("lowercases the name and joins name, token and show-sender with dots", () => {
    expect(address("Denmark")).toBe(`denmark.${TOKEN}.show-sender@testserver`);
    expect(address("test")).toBe(`test.${TOKEN}.show-sender@testserver`);
  });

  it("makes each run of non-word characters one hyphen; underscores and digits are word characters", () => {
    expect(address("dev. help")).toBe(`dev-help.${TOKEN}.show-sender@testserver`);
    expect(address("a_b 2024")).toBe(`a_b-2024.${TOKEN}.show-sender@testserver`);
    expect(address("naïve café")).toBe(`naive-cafe.${TOKEN}.show-sender@testserver`);
    expect(address("ąężć")).toBe(`aezc.${TOKEN}.show-sender@testserver`);
    expect(address("𝔄bc")).toBe(`abc.${TOKEN}.show-sender@testserver`);
  });

  it("leaves the name out when slugifying would change its length", () => {
    for (const name of ["Тестовы some ascii letters", "Łódź", "Denmark!", "(x)", "_private", "ﬁsh", "½ cup", "日本"]) {
      expect(address(name)).toBe(`${TOKEN}.show-sender@testserver`);
    }
  });

  it("gives no address without a gateway domain", () => {
    expect(address("Denmark", "")).toBe("");
    expect(address("Denmark", "mail.example.org")).toBe(`denmark.${TOKEN}.show-sender@mail.example.org`);
  });
});

describe("ROOKERY_EMAIL_GATEWAY_DOMAIN", () => {
  it("defaults to the host name of the external URL", () => {
    expect(loadConfig({}).emailGatewayDomain).toBe("127.0.0.1");
    expect(loadConfig({ ROOKERY_EXTERNAL_URL: "https://chat.example.com:8443/" }).emailGatewayDomain).toBe("chat.example.com");
  });

  it("takes a domain, or empty for no gateway, and refuses anything with spaces or an @", () => {
    expect(loadConfig({ ROOKERY_EMAIL_GATEWAY_DOMAIN: "in.example.com" }).emailGatewayDomain).toBe("in.example.com");
    expect(loadConfig({ ROOKERY_EMAIL_GATEWAY_DOMAIN: "" }).emailGatewayDomain).toBe("");
    expect(() => loadConfig({ ROOKERY_EMAIL_GATEWAY_DOMAIN: "a@b.c" })).toThrow(ConfigError);
    expect(() => loadConfig({ ROOKERY_EMAIL_GATEWAY_DOMAIN: "a b" })).toThrow('ROOKERY_EMAIL_GATEWAY_DOMAIN must be a domain (or empty for none), got "a b"');
  });
});
