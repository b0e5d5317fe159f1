import type { IeeeActiveControl } from "@ess/contracts";
import { controlParts } from "@ess/domain";
import type { TFunction } from "i18next";
import { formatInstant, inZone } from "../../../ui/format/date-time.ts";

/** The end of a control: its time of day when that is today, else its date too. */
function untilText(until: string, now: number, locale?: string): string {
  const today = inZone(until).isSame(inZone(now), "day");
  const time = formatInstant(until, "minute", { locale });
  return today ? time : `${formatInstant(until, "date", { locale })} ${time}`;
}

/** What the control in force asks: "Export limit 2 kW until 14:30", "Default: Export limit 1.5 kW". */
export function activeControlLine(
  active: IeeeActiveControl,
  t: TFunction,
  options: { now?: number; locale?: string } = {},
): string {
  const parts = controlParts(active.control).map(({ key, ...values }) => t(`gridCentre:control.${key}`, values));
  let what = parts.length ? parts.join(" · ") : t("gridCentre:control.noLimits");
  if (active.kind === "default") what = t("gridCentre:control.default", { what });
  if (active.until)
    what = t("gridCentre:control.until", { what, time: untilText(active.until, options.now ?? Date.now(), options.locale) });
  return what;
}
