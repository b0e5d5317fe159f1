import { UnorderedListOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CrudPage } from "../../../ui/crud/index.ts";
import { IeeeDrawer } from "../components/ieee-drawer.tsx";
import { ieeeCommandsCrud } from "../config/ieee-commands.crud.tsx";
import { ieeeDevicesCrud } from "../config/ieee-devices.crud.tsx";

/** The IEEE device management centre (`/aus/ieee`), with every site's command records a click away. */
export default function IeeeDevicesPage() {
  const { t } = useTranslation("gridCentre");
  const [allCommands, setAllCommands] = useState(false);
  const config = {
    ...ieeeDevicesCrud,
    toolbar: () => (
      <Button icon={<UnorderedListOutlined />} onClick={() => setAllCommands(true)} data-testid="ieee-devices-all-commands">
        {t("gridCentre:actions.allCommands")}
      </Button>
    ),
  };
  return (
    <>
      <CrudPage config={config} />
      {allCommands && (
        <IeeeDrawer
          titleKey="gridCentre:drawer.allCommands"
          config={ieeeCommandsCrud(undefined)}
          onClose={() => setAllCommands(false)}
        />
      )}
    </>
  );
}
