import { Input, Space, Tooltip } from "antd";
import { useTranslation } from "react-i18next";

interface Props {
  randomStr: string;
  onRefresh: () => void;
  value?: string;
  onChange?: (value: string) => void;
}

/** The captcha picture (click for a new one) beside the field where its characters are typed. */
export function CaptchaField({ randomStr, onRefresh, value, onChange }: Props) {
  const { t } = useTranslation("auth");
  return (
    <Space.Compact style={{ width: "100%" }}>
      <Input
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        placeholder={t("captcha.placeholder")}
        autoComplete="off"
        maxLength={8}
        data-testid="captcha-input"
      />
      <Tooltip title={t("captcha.refresh")}>
        <button
          type="button"
          onClick={onRefresh}
          style={{ padding: 0, border: "1px solid #d9d9d9", background: "#fff", cursor: "pointer" }}
        >
          <img
            src={`/sys/code?randomStr=${randomStr}`}
            alt={t("captcha.picture")}
            width={120}
            height={40}
            data-testid="captcha-image"
            style={{ display: "block" }}
          />
        </button>
      </Tooltip>
    </Space.Compact>
  );
}
