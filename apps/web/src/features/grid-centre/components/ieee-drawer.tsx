import { Drawer } from "antd";
import { useTranslation } from "react-i18next";
import { type CrudConfig, CrudPage } from "../../../ui/crud/index.ts";

/**
 * A device's list (received, sent, commands) beside the device list, wide enough for its columns:
 * every command record's column fits in a 1,600 px window (the lists' `scrollX`).
 */
export function IeeeDrawer<R extends { id: number }>({
  titleKey,
  sn,
  config,
  onClose,
}: {
  /** i18n key of the title, interpolated with the device's serial number. */
  titleKey: string;
  sn?: string;
  config: CrudConfig<R>;
  onClose: () => void;
}) {
  const { t } = useTranslation("gridCentre");
  return (
    <Drawer open onClose={onClose} width="min(1320px, 95vw)" title={t(titleKey, { sn })} data-testid={`${config.id}-drawer`}>
      <CrudPage config={config} />
    </Drawer>
  );
}
