import type { Locale } from "@ess/domain/locales.ts";
import type { Locale as AntdLocale } from "antd/es/locale";
import dayjs from "dayjs";
import { DATE_PATTERNS } from "../ui/format/date-patterns.ts";

/** antd's own texts and dayjs dates follow the console language; each pair loads on demand. */
const loaders: Record<Locale, () => Promise<[AntdLocale, unknown]>> = {
  "zh-CN": () => Promise.all([import("antd/es/locale/zh_CN").then((m) => m.default), import("dayjs/locale/zh-cn")]),
  "en-US": () => Promise.all([import("antd/es/locale/en_US").then((m) => m.default), import("dayjs/locale/en")]),
  it: () => Promise.all([import("antd/es/locale/it_IT").then((m) => m.default), import("dayjs/locale/it")]),
  es: () => Promise.all([import("antd/es/locale/es_ES").then((m) => m.default), import("dayjs/locale/es")]),
  ja: () => Promise.all([import("antd/es/locale/ja_JP").then((m) => m.default), import("dayjs/locale/ja")]),
};

const dayjsNames: Record<Locale, string> = { "zh-CN": "zh-cn", "en-US": "en", it: "it", es: "es", ja: "ja" };

/** antd's locale with the console's own date patterns, so every date picker writes dates as the lists do. */
function withConsolePatterns(antdLocale: AntdLocale, locale: Locale): AntdLocale {
  const p = DATE_PATTERNS[locale];
  const picker = antdLocale.DatePicker;
  if (!picker) return antdLocale;
  return {
    ...antdLocale,
    DatePicker: {
      ...picker,
      lang: {
        ...picker.lang,
        fieldDateFormat: p.date,
        fieldDateTimeFormat: p.dateTime,
        fieldMonthFormat: p.month,
        fieldYearFormat: p.year,
        fieldTimeFormat: p.time,
      },
    },
  };
}

export async function loadAntdLocale(locale: Locale): Promise<AntdLocale> {
  const [antdLocale] = await loaders[locale]();
  dayjs.locale(dayjsNames[locale]);
  return withConsolePatterns(antdLocale, locale);
}
