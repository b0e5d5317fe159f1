import { FAULT_LEVELS } from "@ess/domain";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Checkbox, Form, Spin, Switch, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";

interface Values {
  levels: number[];
  onlineEvents: boolean;
}

/** Which alarm levels and on/off-line events reach the user as live reminders. */
export default function NoticePreferencesPage() {
  const { t } = useTranslation("alarms");
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const preference = useQuery({ queryKey: ["alarm-preference"], queryFn: () => call(API.alarm.preference) });
  if (!preference.data) return <Spin />;

  const save = async (values: Values) => {
    try {
      await call(API.alarm.savePreference, { body: values as never });
      void message.success(t("preferences.saved"));
      void queryClient.invalidateQueries({ queryKey: ["alarm-preference"] });
    } catch (error) {
      void message.error((error as Error).message);
    }
  };

  return (
    <Card title={t("preferencesTitle")} data-testid="alarm-preferences">
      <Typography.Paragraph type="secondary">{t("preferences.hint")}</Typography.Paragraph>
      <Form<Values> layout="vertical" initialValues={preference.data} onFinish={(v) => void save(v)}>
        <Form.Item name="levels" label={t("preferences.levels")}>
          <Checkbox.Group
            data-testid="alarm-preferences-levels"
            options={FAULT_LEVELS.map((l) => ({ value: l, label: t(`levels.${l}`) }))}
          />
        </Form.Item>
        <Form.Item name="onlineEvents" label={t("preferences.onlineEvents")} valuePropName="checked">
          <Switch data-testid="alarm-preferences-online" />
        </Form.Item>
        <Button type="primary" htmlType="submit" data-testid="alarm-preferences-save">
          {t("preferences.save")}
        </Button>
      </Form>
    </Card>
  );
}
