import type { RuleProblem } from "@ess/domain";
import type { TFunction } from "i18next";

/**
 * A refusal of the shared setting rules, in words: the rules name the register by its id, the
 * message names the setting by its translated label (as the server's refusals do).
 */
export const settingProblemText = (t: TFunction, p: RuleProblem): string =>
  t(p.key, { ...p.values, field: t(`registers:${p.field}`, { defaultValue: t("fields:unnamed") }) });
