import { describe, expect, it } from "vitest";
import { prettyXml } from "./pretty-xml.ts";

describe("prettyXml", () => {
  it("puts each element on its own line, indented by its depth, text elements on one line", () => {
    const xml =
      '<?xml version="1.0"?><EndDeviceList all="1"><EndDevice href="/edev/1"><lFDI>AB12</lFDI><sFDI>123</sFDI><Registration/></EndDevice></EndDeviceList>';
    expect(prettyXml(xml)).toBe(
      [
        '<?xml version="1.0"?>',
        '<EndDeviceList all="1">',
        '  <EndDevice href="/edev/1">',
        "    <lFDI>AB12</lFDI>",
        "    <sFDI>123</sFDI>",
        "    <Registration/>",
        "  </EndDevice>",
        "</EndDeviceList>",
      ].join("\n"),
    );
  });

  it("re-indents a document that was already indented, and keeps an empty element on one line", () => {
    expect(prettyXml("<a>\n      <b></b>\n</a>")).toBe("<a>\n  <b></b>\n</a>");
  });

  it("gives text that is not XML back as it is", () => {
    expect(prettyXml("not xml")).toBe("not xml");
    expect(prettyXml("")).toBe("");
  });
});
