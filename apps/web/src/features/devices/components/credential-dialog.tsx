import { CopyOutlined } from "@ant-design/icons";
import { Alert, App, Button, Descriptions, Modal, Typography } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { forgetIssuedCredential, useIssuedCredential } from "./issued-credential.ts";

/**
 * Shows a device's broker credentials right after they were issued (registration or reset): the
 * MQTT user name, the secret and the topic prefix, with a copy button. The server keeps only a
 * digest, so this is the one time the secret can be read; the dialog says so.
 */
export function CredentialDialog() {
  const { t } = useTranslation(["devices"]);
  const { message } = App.useApp();
  const credential = useIssuedCredential();
  // Leaving the page forgets a secret not yet dismissed: it is never shown a second time.
  useEffect(() => forgetIssuedCredential, []);
  if (!credential) return null;

  const copy = () => {
    const text = [
      `${t("credentials.username")}: ${credential.username}`,
      `${t("credentials.secret")}: ${credential.secret}`,
      `${t("credentials.topicPrefix")}: ${credential.topicPrefix}`,
    ].join("\n");
    void navigator.clipboard
      .writeText(text)
      .then(() => message.success(t("credentials.copied")))
      .catch(() => message.info(credential.secret));
  };

  return (
    <Modal
      open
      title={t("credentials.title", { sn: credential.sn })}
      onCancel={forgetIssuedCredential}
      maskClosable={false}
      width={640}
      footer={[
        <Button key="copy" icon={<CopyOutlined />} onClick={copy} data-testid="device-credential-copy">
          {t("credentials.copy")}
        </Button>,
        <Button key="done" type="primary" onClick={forgetIssuedCredential} data-testid="device-credential-done">
          {t("credentials.done")}
        </Button>,
      ]}
    >
      <div data-testid="device-credential-dialog">
        <Alert
          type="warning"
          showIcon
          title={t("credentials.shownOnce")}
          style={{ marginBottom: 16 }}
          data-testid="device-credential-warning"
        />
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t("credentials.username")}>
            <Typography.Text code data-testid="device-credential-username">
              {credential.username}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t("credentials.secret")}>
            <Typography.Text code data-testid="device-credential-secret" style={{ wordBreak: "break-all" }}>
              {credential.secret}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t("credentials.topicPrefix")}>
            <Typography.Text code data-testid="device-credential-topic">
              {credential.topicPrefix}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      </div>
    </Modal>
  );
}
