import { Tag } from "antd";
import type { TFunction } from "i18next";

const COLOURS: Record<number, string> = { 1: "gold", 2: "orange", 3: "red" };

/** A fault level as a coloured tag (3, a fault, in red). */
export function levelTag(level: number, t: TFunction) {
  return <Tag color={COLOURS[level]}>{t(`alarms:levels.${level}`)}</Tag>;
}
