import { Form, Input, Modal, Typography } from "antd";
import { useTranslation } from "react-i18next";

/** Asks for the lock password (required, spec §5) before the console locks. */
export function LockDialog({
  open,
  onClose,
  onLock,
}: {
  open: boolean;
  onClose: () => void;
  onLock: (password: string) => Promise<void>;
}) {
  const { t } = useTranslation("shell");
  const [form] = Form.useForm<{ password: string }>();
  return (
    <Modal
      open={open}
      title={t("lock.title")}
      okText={t("lock.submit")}
      cancelText={t("common:actions.cancel")}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
      okButtonProps={{ id: "lock-submit" }}
    >
      <Typography.Paragraph type="secondary">{t("lock.intro")}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={({ password }) => onLock(password)} preserve={false}>
        <Form.Item
          name="password"
          label={t("lock.password")}
          rules={[{ required: true, whitespace: true, message: t("lock.required") }]}
        >
          <Input.Password autoFocus autoComplete="new-password" data-testid="lock-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
