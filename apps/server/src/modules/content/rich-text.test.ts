import { describe, expect, it } from "vitest";
import { richTextIsEmpty, sanitizeRichText } from "./rich-text.ts";

const KEY = "0123456789abcdef0123456789abcdef";

describe("sanitizeRichText", () => {
  it.each([
    ["<script>alert(1)</script><p>x</p>", "<p>x</p>"],
    ['<img src=x onerror="alert(1)">', ""],
    [`<img src="/media/file/${KEY}" onerror="alert(1)">`, `<img src="/media/file/${KEY}" />`],
    [`<img src="/media/file/${KEY}/../../admin">`, ""],
    ['<img src="http://plain.example/a.png">', ""],
    ['<img src="//evil.example/a.png">', ""],
    ['<a href="javascript:alert(1)">a</a>', "<a>a</a>"],
    ['<a href="  javascript:alert(1)">a</a>', "<a>a</a>"],
    ['<a href="jav&#x09;ascript:alert(1)">a</a>', "<a>a</a>"],
    ['<a href="data:text/html,<script>alert(1)</script>">a</a>', "<a>a</a>"],
    ['<a href="/admin/user">a</a>', "<a>a</a>"],
    [
      '<a href="mailto:help@example.com">m</a>',
      '<a href="mailto:help@example.com" target="_blank" rel="noopener noreferrer nofollow">m</a>',
    ],
    ['<p style="color:red;background:url(javascript:alert(1))">x</p>', "<p>x</p>"],
    ['<p class="x" id="y" onmouseover="alert(1)">x</p>', "<p>x</p>"],
    ["<style>body{display:none}</style><p>x</p>", "<p>x</p>"],
    ['<iframe src="https://evil.example"></iframe>', ""],
    ["<svg><script>alert(1)</script></svg>", ""],
    ['<form action="https://evil.example"><input name="p"></form>', ""],
    ['<math><mi xlink:href="javascript:alert(1)">x</mi></math>', ""],
    ['<table><tr><td colspan="2" onclick="x()">c</td></tr></table>', '<table><tr><td colspan="2">c</td></tr></table>'],
    ["<h3>t</h3><ul><li><em>a</em></li></ul>", "<h3>t</h3><ul><li><em>a</em></li></ul>"],
    ["<p>a &lt;b&gt; &amp; c</p>", "<p>a &lt;b&gt; &amp; c</p>"],
    ['<object data="x.swf"></object><embed src="x.swf">', ""],
    ['<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil">', ""],
  ])("%s", (input, clean) => {
    expect(sanitizeRichText(input)).toBe(clean);
  });

  it("tells text or pictures from nothing", () => {
    expect(richTextIsEmpty("<p> &nbsp; </p>")).toBe(true);
    expect(richTextIsEmpty(`<img src="/media/file/${KEY}" />`)).toBe(false);
    expect(richTextIsEmpty("<p>x</p>")).toBe(false);
  });
});
