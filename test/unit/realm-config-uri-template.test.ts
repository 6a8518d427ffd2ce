import { describe, expect, it } from "vitest";
import { UriTemplate } from "../../src/algorithms/uri-template.js";

describe("URL templates: validity and variable names", () => {
  it.each([
    "http://example.com/",
    "https://user:password@example.com/",
    "https://example.com/@user/thing",
    "https://example.com/!path",
    "https://example.com/foo[bar]",
    "https://example.com/{foo}{bars}",
    "https://example.com/%ab",
    "https://example.com/%%",
    "https://example.com/%%(foo)s",
    "https://example.com{/foo,bar,baz}",
    "https://example.com/{?foo*}",
    "https://example.com/{+foo,bar}",
    "https://chat{.domain}.com/{#foo}",
    "https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}",
    "$not_a_url$",
    "",
  ])("accepts %j", (template) => {
    expect(UriTemplate.parse(template)).not.toBeNull();
  });

  it.each(["https://example.com/{foo", "https://example.com/{{}", "https://example.com/{//foo}", "https://example.com/{bar++}", "}", "{}", "{a,,b}", "{a:0}", "{a:1234}", "{=x}", "{!x}", "{a b}"])(
    "refuses %j",
    (template) => {
      expect(UriTemplate.parse(template)).toBeNull();
    },
  );

  it("lists each declared name once, in order", () => {
    expect(UriTemplate.parse("https://{zone}{.domain}/{id}{?id,name}{#x.y}")?.variableNames).toEqual(["zone", "domain", "id", "name", "x.y"]);
  });
});

describe("URL templates: expansion", () => {
  const expand = (template: string, values: Record<string, string | null>) => UriTemplate.parse(template)?.expand(values);

  it("escapes values per operator and keeps percent-encoded triplets in literals", () => {
    expect(expand("https://example.com/A%20Test/%%%ba/{id}", { id: "123" })).toBe("https://example.com/A%20Test/%25%25%ba/123");
    expect(expand("/{v}", { v: "a b/é%2F" })).toBe("/a%20b%2F%C3%A9%252F");
    expect(expand("/{+v}", { v: "a b/é%2F" })).toBe("/a%20b/%C3%A9%2F");
    expect(expand("{#v}", { v: "a/b" })).toBe("#a/b");
    expect(expand("x{.v}{/v}{;v}{?v,w}{&w}", { v: "a", w: "" })).toBe("x.a/a;v=a?v=a&w=&w=");
    expect(expand("{;w}", { w: "" })).toBe(";w");
    expect(expand("{v:2}", { v: "éèà" })).toBe("%C3%A9%C3%A8");
  });

  it("leaves out variables without a value", () => {
    expect(expand("/t{?a,b}{/c}", { a: null, b: "1" })).toBe("/t?b=1");
    expect(expand("/t{?a}", { a: null })).toBe("/t");
  });
});
