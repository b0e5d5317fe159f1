import { type ProfileInput, type ProfileRecord, profileInput } from "@ess/contracts";
import { GENDER_VALUES } from "@ess/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, DatePicker, Form, Input, Select } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { ImageUploadInput } from "../../../ui/image-upload-input.tsx";
import { setFormErrors, useLiveErrors } from "../../../ui/live-errors.ts";
import { knownPicture } from "../../../ui/media-upload.ts";
import { schemaErrors } from "../../../ui/schema-errors.ts";

type Values = Omit<ProfileInput, "birthDate"> & { birthDate: Dayjs | null };

const toBody = (v: Partial<Values>) => ({
  ...v,
  birthDate: v.birthDate ? v.birthDate.format("YYYY-MM-DD") : "",
  avatar: v.avatar ?? null,
});

/**
 * The caller's own name, gender, date of birth and phone (spec §5: all required; the phone is
 * stored in E.164 and shown as stored). Checked with the server's schema as the user types.
 */
export function ProfileForm() {
  const { t } = useTranslation(["auth", "fields", "validation", "common"]);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const live = useLiveErrors();
  const shown = useRef<string[]>([]);
  const profile = useQuery({ queryKey: ["profile"], queryFn: () => call(API.profile.get) });

  useEffect(() => {
    const p = profile.data as ProfileRecord | undefined;
    if (!p) return;
    form.setFieldsValue({
      name: p.name,
      ...(p.gender === null ? {} : { gender: p.gender }),
      birthDate: p.birthDate ? dayjs(p.birthDate) : null,
      phone: p.phone ?? "",
      avatar: p.avatar,
    });
  }, [profile.data, form]);

  const save = useMutation({
    mutationFn: (values: Values) => call(API.profile.edit, { body: toBody(values) as ProfileInput }),
    onSuccess: (saved) => {
      queryClient.setQueryData(["profile"], saved);
      void message.success(t("info.saved"));
      live.reset();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields.length > 0) {
        setFormErrors(form as never, shown, Object.fromEntries(error.fields.map((f) => [f.field, f.message])));
      }
    },
  });

  const check = () => {
    const problems = schemaErrors(profileInput, toBody(form.getFieldsValue(true)), t).map((p) => ({
      field: p.name.join("."),
      message: p.errors[0] ?? "",
    }));
    setFormErrors(form as never, shown, live.visible(problems));
    return problems;
  };
  const refused = save.error instanceof ApiError && save.error.fields.length === 0 ? save.error.message : null;
  // The avatar input shows what is stored from its first render on.
  if (!profile.data) return null;

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      requiredMark
      style={{ maxWidth: 360 }}
      onValuesChange={(changed) => {
        live.onValuesChange(changed);
        check();
      }}
      onFinish={(values) => {
        live.submit();
        if (check().length === 0) save.mutate(values);
      }}
      data-testid="profile-form"
    >
      <Form.Item label={t("fields:username")}>
        <Input value={(profile.data as ProfileRecord | undefined)?.username ?? ""} disabled data-testid="profile-username" />
      </Form.Item>
      <Form.Item name="avatar" label={t("fields:avatar")}>
        <ImageUploadInput
          own
          testId="profile-avatar"
          initial={knownPicture(
            (profile.data as ProfileRecord | undefined)?.avatar ?? null,
            (profile.data as ProfileRecord | undefined)?.avatarUrl ?? null,
          )}
        />
      </Form.Item>
      <Form.Item name="name" label={t("fields:name")} required>
        <Input data-testid="profile-name" maxLength={64} />
      </Form.Item>
      <Form.Item name="gender" label={t("fields:gender")} required>
        <Select
          data-testid="profile-gender"
          options={GENDER_VALUES.map((value) => ({ value, label: t(`info.genders.${value}`) }))}
        />
      </Form.Item>
      <Form.Item name="birthDate" label={t("fields:birthDate")} required>
        <DatePicker
          data-testid="profile-birth-date"
          style={{ width: "100%" }}
          disabledDate={(day) => day.isAfter(dayjs(), "day") || day.year() < 1900}
        />
      </Form.Item>
      <Form.Item name="phone" label={t("fields:phone")} required>
        <Input data-testid="profile-phone" inputMode="tel" autoComplete="tel" />
      </Form.Item>
      {refused && <Alert type="error" showIcon title={refused} style={{ marginBottom: 16 }} />}
      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="profile-save">
        {t("info.save")}
      </Button>
    </Form>
  );
}
