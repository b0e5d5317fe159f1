import { parsePeriods } from "@ess/contracts";
import { checkTimePeriods } from "@ess/domain";
import { Button, Form, Space, TimePicker, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";

type Range = [Dayjs | null, Dayjs | null];

const toRanges = (text: unknown): Range[] =>
  parsePeriods(typeof text === "string" ? text : "").map((p) => [
    p.start ? dayjs(p.start, "HH:mm") : null,
    p.end ? dayjs(p.end, "HH:mm") : null,
  ]);

/** Back to the contract's text form ("HH:mm-HH:mm" per line); a missing time stays empty so the rule names it. */
const toText = (ranges: Range[]) => ranges.map(([s, e]) => `${s?.format("HH:mm") ?? ""}-${e?.format("HH:mm") ?? ""}`).join("\n");

/**
 * A mode's periods as time ranges: one start–end pair per row. Every change runs the shared
 * whole-day rule (spec §5) and shows its message on the field at once, before anything is saved.
 */
export function PeriodRangesInput({
  value,
  onChange,
  testId,
}: {
  value?: unknown;
  onChange?: (value: unknown) => void;
  testId: string;
}) {
  const { t } = useTranslation(["schedules"]);
  // The dialog's own check puts the same message on the field at submit; until then it shows here.
  const { errors } = Form.Item.useStatus();
  const [ranges, setRanges] = useState<Range[]>(() => toRanges(value));
  const problem = checkTimePeriods(parsePeriods(toText(ranges)), { field: "periods", coverDay: true })[0];
  const live = problem ? t(problem.key, problem.values) : null;

  const update = (next: Range[]) => {
    setRanges(next);
    onChange?.(toText(next));
  };
  const picker = (i: number, side: 0 | 1) => (
    <TimePicker
      format="HH:mm"
      needConfirm={false}
      value={ranges[i]?.[side] ?? null}
      placeholder={t(side === 0 ? "schedules:modes.periodStart" : "schedules:modes.periodEnd")}
      data-testid={`${testId}-${i}-${side === 0 ? "start" : "end"}`}
      onChange={(v) => update(ranges.map((r, k) => (k === i ? ((side === 0 ? [v, r[1]] : [r[0], v]) as Range) : r)))}
    />
  );

  return (
    <Space direction="vertical" data-testid={testId}>
      {ranges.map((_, i) => (
        // Rows have no identity of their own; their position is what the user edits.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Space key={i} data-testid={`${testId}-${i}`}>
          {picker(i, 0)}
          <span>–</span>
          {picker(i, 1)}
          <Button onClick={() => update(ranges.filter((_, k) => k !== i))} data-testid={`${testId}-${i}-remove`}>
            {t("schedules:modes.removePeriod")}
          </Button>
        </Space>
      ))}
      <Button onClick={() => update([...ranges, [null, null]])} data-testid={`${testId}-add`}>
        {t("schedules:modes.addPeriod")}
      </Button>
      {live && !errors.includes(live) && (
        <Typography.Text type="danger" data-testid={`${testId}-problem`}>
          {live}
        </Typography.Text>
      )}
    </Space>
  );
}
