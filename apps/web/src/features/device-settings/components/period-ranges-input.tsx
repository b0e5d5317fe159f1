import { parsePeriods } from "@ess/contracts";
import { checkTimePeriods } from "@ess/domain";
import { Button, Form, Space, TimePicker } from "antd";
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
  name,
  value,
  onChange,
  testId,
}: {
  name: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
  testId: string;
}) {
  const { t } = useTranslation(["bulk", "schedules"]);
  const form = Form.useFormInstance();
  const [ranges, setRanges] = useState<Range[]>(() => toRanges(value));

  const update = (next: Range[]) => {
    setRanges(next);
    const text = toText(next);
    onChange?.(text);
    const problem = checkTimePeriods(parsePeriods(text), { field: "periods", coverDay: true })[0];
    form.setFields([{ name, errors: problem ? [t(problem.key, problem.values)] : [] }]);
  };

  return (
    <Space direction="vertical" data-testid={testId}>
      {ranges.map((range, i) => (
        // Rows have no identity of their own; their position is what the user edits.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Space key={i} data-testid={`${testId}-${i}`}>
          <TimePicker.RangePicker
            format="HH:mm"
            order={false}
            value={range}
            placeholder={[t("bulk:periods.start"), t("bulk:periods.end")]}
            onChange={(v) => update(ranges.map((r, k) => (k === i ? ([v?.[0] ?? null, v?.[1] ?? null] as Range) : r)))}
          />
          <Button onClick={() => update(ranges.filter((_, k) => k !== i))} data-testid={`${testId}-${i}-remove`}>
            {t("bulk:periods.remove")}
          </Button>
        </Space>
      ))}
      <Button onClick={() => update([...ranges, [null, null]])} data-testid={`${testId}-add`}>
        {t("bulk:periods.add")}
      </Button>
    </Space>
  );
}
