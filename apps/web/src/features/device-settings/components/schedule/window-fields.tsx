import type { ScheduleWindow } from "@ess/domain";
import { Col, Form, Row, TimePicker } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useTranslation } from "react-i18next";
import { ModeSelect } from "./mode-palette.tsx";

const timeValue = (hhmm: string): Dayjs => {
  const [h, m] = hhmm.split(":").map(Number);
  return dayjs()
    .startOf("day")
    .hour(h ?? 0)
    .minute(m ?? 0);
};

export interface FieldState {
  /** The message of a broken rule at a model path, if any. */
  errorAt: (path: string) => string | undefined;
  /** Whether the caller may set every register behind a model path. */
  settable: (path: string) => boolean;
}

/**
 * A period of the day with the mode inside it and the mode outside it (a quarter's weekdays, its
 * other days, a special date): a time range picker and two mode choices.
 */
export function WindowFields({
  value,
  onChange,
  path,
  testId,
  state,
}: {
  value: ScheduleWindow;
  onChange: (next: ScheduleWindow) => void;
  path: string;
  testId: string;
  state: FieldState;
}) {
  const { t } = useTranslation(["schedules"]);
  const periodError = state.errorAt(`${path}.end`) ?? state.errorAt(`${path}.start`);
  return (
    <Row gutter={12}>
      <Col xs={24} lg={10}>
        <Form.Item
          label={t("schedules:view.period")}
          validateStatus={periodError ? "error" : undefined}
          help={periodError}
          data-testid={`${testId}-period`}
        >
          <TimePicker.RangePicker
            format="HH:mm"
            allowClear={false}
            order={false}
            needConfirm={false}
            disabled={!state.settable(`${path}.start`) || !state.settable(`${path}.end`)}
            value={[timeValue(value.start), timeValue(value.end)]}
            onChange={(range) => {
              const [start, end] = range ?? [];
              if (start && end) onChange({ ...value, start: start.format("HH:mm"), end: end.format("HH:mm") });
            }}
            style={{ width: "100%" }}
          />
        </Form.Item>
      </Col>
      <Col xs={12} lg={7}>
        <Form.Item label={t("schedules:view.modeInside")} help={state.errorAt(`${path}.modeInside`)}>
          <ModeSelect
            value={value.modeInside}
            onChange={(modeInside) => onChange({ ...value, modeInside })}
            disabled={!state.settable(`${path}.modeInside`)}
            testId={`${testId}-inside`}
            label={t("schedules:view.modeInside")}
          />
        </Form.Item>
      </Col>
      <Col xs={12} lg={7}>
        <Form.Item label={t("schedules:view.modeOutside")} help={state.errorAt(`${path}.modeOutside`)}>
          <ModeSelect
            value={value.modeOutside}
            onChange={(modeOutside) => onChange({ ...value, modeOutside })}
            disabled={!state.settable(`${path}.modeOutside`)}
            testId={`${testId}-outside`}
            label={t("schedules:view.modeOutside")}
          />
        </Form.Item>
      </Col>
    </Row>
  );
}
