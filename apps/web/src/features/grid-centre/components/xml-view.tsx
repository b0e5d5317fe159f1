import { Typography } from "antd";
import { useTranslation } from "react-i18next";
import { prettyXml } from "./pretty-xml.ts";

/**
 * A document as exchanged with the utility server, indented and in a fixed-width font. A long line
 * (a list's attributes, a namespace) wraps within the row, keeping its indentation: unwrapped, it
 * widened the whole table past the drawer and pushed the columns out of sight.
 */
export function XmlView({ xml }: { xml: string }) {
  const { t } = useTranslation("gridCentre");
  if (xml.trim() === "") return <Typography.Text type="secondary">{t("gridCentre:noDocument")}</Typography.Text>;
  return (
    <pre
      data-testid="ieee-xml"
      style={{
        fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
        fontSize: 12,
        margin: 0,
        whiteSpace: "pre-wrap",
        overflowWrap: "anywhere",
        // No width of its own to offer the table (which sizes itself to its content): the row's
        // columns set the width and the document wraps within it.
        width: 0,
        minWidth: "100%",
      }}
    >
      {prettyXml(xml)}
    </pre>
  );
}
