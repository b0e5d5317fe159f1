import { useTranslation } from "react-i18next";
import { PlainInput } from "./plain-input.tsx";

interface Props {
  randomStr: string;
  onRefresh: () => void;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
}

/**
 * The captcha picture (click for a new one) beside the field where its characters are typed. Plain
 * layout and the button's own title instead of antd's Input, Space and Tooltip keep the sign-in page light.
 */
export function CaptchaField({ randomStr, onRefresh, value, onChange, invalid = false }: Props) {
  const { t } = useTranslation("auth");
  return (
    <div style={{ display: "flex", gap: 8, alignItems: "stretch" }}>
      <PlainInput
        value={value}
        onChange={onChange}
        invalid={invalid}
        placeholder={t("captcha.placeholder")}
        aria-label={t("captcha.placeholder")}
        autoComplete="off"
        maxLength={8}
        data-testid="captcha-input"
      />
      <button
        type="button"
        onClick={onRefresh}
        title={t("captcha.refresh")}
        aria-label={t("captcha.refresh")}
        style={{
          padding: 0,
          border: "1px solid #d9d9d9",
          borderRadius: 6,
          overflow: "hidden",
          background: "#fff",
          cursor: "pointer",
        }}
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
    </div>
  );
}
