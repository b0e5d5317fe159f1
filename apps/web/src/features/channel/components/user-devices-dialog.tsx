import type { EndUser } from "@ess/contracts";
import { useQuery } from "@tanstack/react-query";
import { Modal, Table, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";

/**
 * The devices bound to an end user (a sub-user sees its master's), each opening its details page
 * (spec §2 Ordinary-user screen "view device").
 */
export function UserDevicesDialog({ user, onClose }: { user: EndUser; onClose: () => void }) {
  const { t } = useTranslation(["channel", "devices", "enums"]);
  const owner = user.parentUserId ?? user.id;
  const devices = useQuery({
    queryKey: ["user-devices", owner],
    // The list filters by account name as a substring: keep only this account's devices.
    queryFn: async () => {
      const page = await call(API.device.page, {
        query: { owner: user.parentUsername ?? user.username, size: 100 },
      } as never);
      return page.records.filter((d) => d.ownerId === owner);
    },
  });
  return (
    <Modal open footer={null} onCancel={onClose} width={720} title={t("channel:devices.title", { username: user.username })}>
      <Table
        data-testid="user-devices"
        rowKey="id"
        size="small"
        loading={devices.isPending}
        dataSource={devices.data ?? []}
        pagination={false}
        locale={{ emptyText: t("channel:devices.none") }}
        columns={[
          {
            key: "sn",
            title: t("devices:columns.sn"),
            render: (_, d) => (
              <Link to={`/device/details/${d.id}`} onClick={onClose} data-testid={`user-device-${d.sn}`}>
                {d.sn}
              </Link>
            ),
          },
          { key: "name", title: t("devices:columns.name"), dataIndex: "name" },
          {
            key: "online",
            title: t("devices:columns.onlineStatus"),
            render: (_, d) => <Tag>{t(`enums:onlineStatusFilter.${d.onlineStatus}`)}</Tag>,
          },
        ]}
      />
    </Modal>
  );
}
