import { MEDIA_PATH_PREFIX } from "@ess/domain";
import sanitizeHtml from "sanitize-html";
import { ValidationError } from "../../http/errors.ts";

/**
 * The one sanitiser of rich text that staff write for end users (articles, messages, FAQ
 * answers): an allow-list over sanitize-html. Kept: headings, paragraphs, lists, quotes, code,
 * tables and basic formatting; links to http, https and mailto (opened in a new tab without
 * referrer); pictures from this server's media routes or https. Everything else goes: scripts and
 * styles with their content, event handlers (`onerror`…), `style`/`class` attributes, frames,
 * forms, `javascript:`/`data:` and relative links.
 */
const TAGS = [
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "p",
  "br",
  "hr",
  "blockquote",
  "pre",
  "code",
  "ul",
  "ol",
  "li",
  "a",
  "img",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
  "caption",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "s",
  "strike",
  "sub",
  "sup",
  "span",
];

const LINK = /^(https?:\/\/|mailto:)/i;
const MEDIA_SOURCE = new RegExp(`^(${MEDIA_PATH_PREFIX}|/media/thumb/)[0-9a-f]{32}$`);
const IMAGE_SOURCE = (src: string) => MEDIA_SOURCE.test(src) || /^https:\/\/[^\s"'<>]+$/i.test(src);

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: TAGS,
  allowedAttributes: {
    a: ["href", "title", "target", "rel"],
    img: ["src", "alt", "title", "width", "height"],
    th: ["colspan", "rowspan"],
    td: ["colspan", "rowspan"],
    ol: ["start"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["https"] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "iframe", "object", "embed", "template", "svg", "math"],
  transformTags: {
    a: (tagName, attribs) => {
      const href = (attribs.href ?? "").trim();
      const { href: _href, target: _target, rel: _rel, ...rest } = attribs;
      if (!LINK.test(href)) return { tagName, attribs: rest };
      return { tagName, attribs: { ...rest, href, target: "_blank", rel: "noopener noreferrer nofollow" } };
    },
  },
  exclusiveFilter: (frame) => frame.tag === "img" && !IMAGE_SOURCE(frame.attribs.src ?? ""),
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** Whether sanitised rich text shows anything (text or a picture): "required" otherwise. */
export function richTextIsEmpty(html: string): boolean {
  return !/<img\b/i.test(html) && sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;|\s/g, "") === "";
}

/** The rich text of a field, sanitised; refused as "required" when nothing is left of it. */
export function richTextOrRefuse(html: string, field: string, label: string): string {
  const clean = sanitizeRichText(html);
  if (richTextIsEmpty(clean)) throw new ValidationError([{ field, key: "validation:required", values: { field }, label }]);
  return clean;
}
