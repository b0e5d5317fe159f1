import { localisedLabel } from "@ess/contracts";
import { LOCALES, type Locale, REQUIRED_TEXT_LOCALES, textFor } from "@ess/domain";
import i18next from "i18next";
import type { FieldDef } from "../../../ui/crud/index.ts";

/** The inputs of a text in the five languages (`name.zh-CN`, …); Chinese and English required. */
export const localisedFields = (field: string, kind: "text" | "textarea" = "text"): FieldDef[] =>
  LOCALES.map((l) => ({
    name: `${field}.${l}`,
    label: localisedLabel(field, l),
    kind,
    required: (REQUIRED_TEXT_LOCALES as readonly string[]).includes(l),
  }));

/** A stored text in the console's language (else English, else Chinese). */
export const inLanguage = (texts: Partial<Record<string, string>> | null | undefined): string =>
  textFor(texts, (LOCALES as readonly string[]).includes(i18next.language) ? (i18next.language as Locale) : "en-US");
