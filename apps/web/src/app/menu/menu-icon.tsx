import {
  AlertOutlined,
  AppstoreOutlined,
  CloudOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FileTextOutlined,
  GiftOutlined,
  GlobalOutlined,
  HomeOutlined,
  SettingOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  ToolOutlined,
  UserOutlined,
} from "@ant-design/icons";
import type { ReactNode } from "react";

/**
 * Menu items name their icon; the console knows a small set by plain name (`home`, `setting`, …)
 * or antd name (`HomeOutlined`). Others show a generic icon rather than loading every icon.
 */
const ICONS: Record<string, ReactNode> = {
  home: <HomeOutlined />,
  dashboard: <DashboardOutlined />,
  setting: <SettingOutlined />,
  user: <UserOutlined />,
  team: <TeamOutlined />,
  alert: <AlertOutlined />,
  thunderbolt: <ThunderboltOutlined />,
  cloud: <CloudOutlined />,
  tool: <ToolOutlined />,
  database: <DatabaseOutlined />,
  file: <FileTextOutlined />,
  appstore: <AppstoreOutlined />,
  global: <GlobalOutlined />,
  gift: <GiftOutlined />,
};

export function menuIcon(name: string | null, hasChildren: boolean): ReactNode {
  const key = (name ?? "")
    .replace(/Outlined$/, "")
    .replace(/^icon-/, "")
    .toLowerCase();
  return ICONS[key] ?? (hasChildren ? <AppstoreOutlined /> : <FileTextOutlined />);
}
