import type { SelfCheckItem } from "@ess/contracts";
import { selfCheckItemUnit } from "@ess/domain";
import { Table, Tag } from "antd";
import { useTranslation } from "react-i18next";

const OUTCOME_COLOUR: Record<SelfCheckItem["outcome"], string> = {
  passed: "success",
  failed: "error",
  running: "processing",
  pending: "default",
  notRun: "default",
  notReported: "warning",
};

/** What a self-check tested and each result with its values: set threshold and time, where and when it tripped. */
export function SelfCheckItems({ items, testId }: { items: readonly SelfCheckItem[]; testId: string }) {
  const { t } = useTranslation(["settings", "enums"]);
  const withUnit = (item: number, v: number | null) => (v === null ? "—" : `${v} ${selfCheckItemUnit(item)}`.trim());
  const ms = (v: number | null) => (v === null ? "—" : String(v));
  return (
    <Table<SelfCheckItem>
      size="small"
      rowKey="item"
      pagination={false}
      dataSource={[...items]}
      data-testid={testId}
      onRow={(r) => ({ "data-testid": `${testId}-${r.item}`, "data-outcome": r.outcome }) as React.HTMLAttributes<HTMLElement>}
      columns={[
        {
          title: t("settings:selfCheck.columns.item"),
          dataIndex: "item",
          render: (item: number) => (item === 0 ? t("settings:selfCheck.wholeCheck") : t(`enums:TP_0X04_14Filter.${item}`)),
        },
        {
          title: t("settings:selfCheck.columns.outcome"),
          dataIndex: "outcome",
          render: (o: SelfCheckItem["outcome"]) => <Tag color={OUTCOME_COLOUR[o]}>{t(`settings:selfCheck.outcomes.${o}`)}</Tag>,
        },
        {
          title: t("settings:selfCheck.columns.setThreshold"),
          key: "setThreshold",
          render: (_, r) => withUnit(r.item, r.setThreshold),
        },
        { title: t("settings:selfCheck.columns.setTimeMs"), key: "setTimeMs", render: (_, r) => ms(r.setTimeMs) },
        {
          title: t("settings:selfCheck.columns.actualThreshold"),
          key: "actualThreshold",
          render: (_, r) => withUnit(r.item, r.actualThreshold),
        },
        { title: t("settings:selfCheck.columns.actualTimeMs"), key: "actualTimeMs", render: (_, r) => ms(r.actualTimeMs) },
      ]}
    />
  );
}
