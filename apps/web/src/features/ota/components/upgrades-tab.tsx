import { Flex } from "antd";
import type { DeviceTabProps } from "../../devices/details/tab-registry.ts";
import { OtaSendButton } from "./ota-send.tsx";
import { UpgradeRecords } from "./upgrade-records.tsx";

/** The device details' upgrade record list (spec §2), with the "OTA upgrade" button above it. */
export default function UpgradesTab({ device }: DeviceTabProps) {
  return (
    <Flex vertical gap={12} data-testid="device-upgrades">
      <Flex justify="end">
        <OtaSendButton deviceId={device.id} sn={device.sn} />
      </Flex>
      <UpgradeRecords deviceId={device.id} />
    </Flex>
  );
}
