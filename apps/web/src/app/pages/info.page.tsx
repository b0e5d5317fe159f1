import { Card, Descriptions, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { useSession } from "../session.ts";

/** /info/index: the signed-in user's personal information. */
export default function InfoPage() {
  const { t } = useTranslation("shell");
  const info = useSession()?.userInfo;
  const user = info?.user;
  return (
    <Card title={t("routes.info")} data-testid="info-page">
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t("info.account")}>{user?.username ?? t("info.none")}</Descriptions.Item>
        <Descriptions.Item label={t("info.name")}>{user?.name || t("info.none")}</Descriptions.Item>
        <Descriptions.Item label={t("info.roles")}>
          {info?.roles.length ? info.roles.map((r) => <Tag key={r}>{r}</Tag>) : t("info.none")}
        </Descriptions.Item>
        <Descriptions.Item label={t("info.userType")}>
          {user ? t(`info.types.${user.userType}`, { defaultValue: t("info.none") }) : t("info.none")}
        </Descriptions.Item>
        <Descriptions.Item label={t("info.timeZone")}>{user?.timeZone ?? t("info.none")}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
