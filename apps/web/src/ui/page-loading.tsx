import { Spin } from "antd";

/** Shown while a page's code or labels load. */
export function PageLoading() {
  return (
    <div style={{ display: "grid", placeItems: "center", minHeight: "60vh" }} role="status" aria-busy="true">
      <Spin size="large" />
    </div>
  );
}
