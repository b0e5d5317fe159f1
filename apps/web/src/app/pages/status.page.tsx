import { PRODUCT } from "@ess/domain/product.ts";
import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

const TEXT = { 404: "errorPages.notFound", 403: "errorPages.forbidden", 500: "errorPages.serverError" } as const;

/** The /404, /403 and /500 pages (spec §2). */
export function StatusPage({ code }: { code: 404 | 403 | 500 }) {
  const { t } = useTranslation("shell");
  const navigate = useNavigate();
  return (
    <Result
      status={String(code) as "404" | "403" | "500"}
      title={code}
      subTitle={t(TEXT[code])}
      data-testid={`status-${code}`}
      extra={
        <Button type="primary" onClick={() => void navigate(PRODUCT.homePath)}>
          {t("errorPages.home")}
        </Button>
      }
    />
  );
}

export const NotFoundPage = () => (
  <main style={{ minHeight: "100vh", display: "grid", placeItems: "center" }}>
    <StatusPage code={404} />
  </main>
);
