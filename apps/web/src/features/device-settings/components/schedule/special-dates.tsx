import { isCalendarDate, type ScheduleSpecialDate } from "@ess/domain";
import { Col, DatePicker, Form, Row } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { type FieldState, WindowFields } from "./window-fields.tsx";

const FIRST_YEAR = 2000;
const LAST_YEAR = 2099;

/** Five dates that override their quarter for one day: a date picker and the day's period and modes. */
export function SpecialDates({
  value,
  onChange,
  state,
}: {
  value: readonly ScheduleSpecialDate[];
  onChange: (index: number, next: ScheduleSpecialDate) => void;
  state: FieldState;
}) {
  const { t } = useTranslation(["schedules"]);
  return (
    <div data-testid="schedule-special-dates">
      {value
        .map((_, slot) => slot)
        .map((i) => {
          const special = value[i] as ScheduleSpecialDate;
          const path = `specialDates.${i}`;
          const [y, m, d] = special.date.split("-").map(Number) as [number, number, number];
          // A date the device holds but the calendar lacks (31 April) leaves the picker empty, with the rule's message.
          const real = isCalendarDate(y, m, d);
          const error = state.errorAt(`${path}.date`);
          return (
            <Row gutter={12} key={`special-${i + 1}`} data-testid={`schedule-special-${i + 1}`} align="top">
              <Col xs={24} lg={6}>
                <Form.Item
                  label={t("schedules:view.specialDate", { n: i + 1 })}
                  validateStatus={error ? "error" : undefined}
                  help={error}
                  data-testid={`schedule-special-${i + 1}-date`}
                >
                  <DatePicker
                    value={real ? dayjs(`${special.date}T00:00:00`) : null}
                    placeholder={special.date}
                    allowClear={false}
                    format="YYYY-MM-DD"
                    disabled={!state.settable(`${path}.date`)}
                    disabledDate={(day) => day.year() < FIRST_YEAR || day.year() > LAST_YEAR}
                    onChange={(day) => day && onChange(i, { ...special, date: day.format("YYYY-MM-DD") })}
                    style={{ width: "100%" }}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} lg={18}>
                <WindowFields
                  value={special.window}
                  onChange={(window) => onChange(i, { ...special, window })}
                  path={`${path}.window`}
                  testId={`schedule-special-${i + 1}`}
                  state={state}
                />
              </Col>
            </Row>
          );
        })}
    </div>
  );
}
