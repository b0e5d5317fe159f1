import { passwordChange } from "@ess/contracts";
import { PRODUCT } from "@ess/domain/product.ts";
import { useMutation } from "@tanstack/react-query";
import { Alert, App, Button, Card, Descriptions, Form, Input, Space, Tag } from "antd";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { sessionStore, useSession } from "../../../app/session.ts";
import { setFormErrors, useLiveErrors } from "../../../ui/live-errors.ts";
import { schemaErrors } from "../../../ui/schema-errors.ts";
import { ProfileForm } from "../components/profile-form.tsx";

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * Personal information and change password (spec §2 /info/index, rules of spec §5). At first
 * sign-in (or after an administrator reset the password) this is the only page until the change.
 */
export default function PersonalInfoPage() {
  const { t } = useTranslation(["auth", "common", "enums", "roles", "fields"]);
  const { message } = App.useApp();
  const session = useSession();
  const navigate = useNavigate();
  const [form] = Form.useForm<PasswordForm>();
  const live = useLiveErrors();
  const shown = useRef<string[]>([]);
  const forced = session?.sfFirst ?? false;
  const info = session?.userInfo;

  const change = useMutation({
    mutationFn: (values: PasswordForm) => call(API.auth.passwordEdit, { body: values }),
    onSuccess: () => {
      void message.success(t("password.changed"));
      form.resetFields();
      live.reset();
      setFormErrors(form as never, shown, {});
      sessionStore.passwordChanged();
      if (forced) void navigate(PRODUCT.homePath, { replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields.length > 0) {
        setFormErrors(form as never, shown, Object.fromEntries(error.fields.map((f) => [f.field, f.message])));
      }
    },
  });

  /** The shared schema's refusals, shown at the fields the user changed (all after Submit). */
  const check = () => {
    const problems = schemaErrors(passwordChange, form.getFieldsValue(true), t).map((p) => ({
      field: p.name.join("."),
      message: p.errors[0] ?? "",
    }));
    setFormErrors(form as never, shown, live.visible(problems));
    return problems;
  };
  const submit = (values: PasswordForm) => {
    live.submit();
    if (check().length > 0) return;
    change.mutate(values);
  };
  const refused = change.error instanceof ApiError && change.error.fields.length === 0 ? change.error.message : null;

  return (
    <div style={{ maxWidth: 720 }} data-testid="info-page">
      <Space direction="vertical" size="large" style={{ width: "100%" }}>
        {forced && <Alert type="warning" showIcon title={t("password.mustChange")} data-testid="password-forced" />}
        {info && (
          <Card title={t("info.title")}>
            {!forced && <ProfileForm />}
            <Descriptions column={1} size="small" style={{ marginTop: forced ? 0 : 24 }}>
              <Descriptions.Item label={t("fields:userType")}>
                {t(`enums:userTypeFilter.${info.user.userType}`)}
              </Descriptions.Item>
              <Descriptions.Item label={t("fields:timeZone")}>{info.user.timeZone ?? "—"}</Descriptions.Item>
              <Descriptions.Item label={t("fields:roles")}>
                {info.roles.map((code) => (
                  <Tag key={code}>{t(`roles:${code}`, { defaultValue: code })}</Tag>
                ))}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        )}
        <Card title={t("password.title")}>
          <Form<PasswordForm>
            form={form}
            layout="vertical"
            onFinish={submit}
            onValuesChange={(changed) => {
              live.onValuesChange(changed);
              check();
            }}
            requiredMark
            style={{ maxWidth: 360 }}
          >
            <Form.Item name="oldPassword" label={t("fields:oldPassword")} required>
              <Input.Password autoComplete="current-password" data-testid="old-password" />
            </Form.Item>
            <Form.Item name="newPassword" label={t("fields:newPassword")} required extra={t("validation:passwordRule")}>
              <Input.Password autoComplete="new-password" data-testid="new-password" />
            </Form.Item>
            <Form.Item name="confirmPassword" label={t("fields:confirmPassword")} required>
              <Input.Password autoComplete="new-password" data-testid="confirm-password" />
            </Form.Item>
            {refused && <Alert type="error" showIcon title={refused} style={{ marginBottom: 16 }} />}
            <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="change-password">
              {t("password.submit")}
            </Button>
          </Form>
        </Card>
      </Space>
    </div>
  );
}
