/**
 * Indents an XML document for reading: one element per line, two spaces per level, an element
 * holding only text kept on one line (`<lFDI>AB…</lFDI>`). The text is never changed otherwise,
 * so what staff read is what went over the wire; a document that is not well-formed comes back
 * indented as far as its tags allow.
 */
export function prettyXml(xml: string): string {
  const tokens = xml
    .split(/(<[^>]+>)/)
    .map((t) => t.trim())
    .filter((t) => t !== "");
  const lines: string[] = [];
  let depth = 0;
  const pad = () => "  ".repeat(Math.max(depth, 0));
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const isTag = token.startsWith("<");
    const opening =
      isTag && !token.startsWith("</") && !token.startsWith("<?") && !token.startsWith("<!") && !token.endsWith("/>");
    if (opening) {
      const next = tokens[i + 1];
      const after = tokens[i + 2];
      if (next?.startsWith("</")) {
        lines.push(`${pad()}${token}${next}`);
        i += 1;
      } else if (next !== undefined && !next.startsWith("<") && after?.startsWith("</")) {
        lines.push(`${pad()}${token}${next}${after}`);
        i += 2;
      } else {
        lines.push(`${pad()}${token}`);
        depth++;
      }
    } else if (isTag && token.startsWith("</")) {
      depth--;
      lines.push(`${pad()}${token}`);
    } else lines.push(`${pad()}${token}`);
  }
  return lines.join("\n");
}
