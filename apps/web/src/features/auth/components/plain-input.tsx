import { type InputHTMLAttributes, useState } from "react";

/**
 * Text and password inputs drawn like antd's, for the sign-in page only: antd's Input brings its
 * form machinery along (about 25 KB of gzipped script), which the page's budget cannot carry.
 */
const STYLE = `
.ess-plain-input{box-sizing:border-box;display:flex;align-items:center;width:100%;min-height:32px;padding:0 11px;
  border:1px solid #d9d9d9;border-radius:6px;background:#fff;transition:border-color .2s,box-shadow .2s}
.ess-plain-input:hover{border-color:#4096ff}
.ess-plain-input:focus-within{border-color:#1677ff;box-shadow:0 0 0 2px rgba(5,145,255,.1)}
.ess-plain-input[data-invalid=true]{border-color:#ff4d4f}
.ess-plain-input[data-invalid=true]:focus-within{box-shadow:0 0 0 2px rgba(255,38,5,.06)}
.ess-plain-input input{flex:1;min-width:0;height:30px;padding:0;border:0;outline:0;background:transparent;font:inherit;color:inherit}
.ess-plain-input input::placeholder{color:rgba(0,0,0,.25)}
.ess-plain-input button{display:inline-flex;padding:0 0 0 4px;border:0;background:none;color:rgba(0,0,0,.45);cursor:pointer}
.ess-plain-input button:hover{color:rgba(0,0,0,.88)}
`;

export function PlainInputStyle() {
  return <style>{STYLE}</style>;
}

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value"> & {
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  "data-testid"?: string;
};

export function PlainInput({ invalid = false, onChange, ...input }: Props) {
  return (
    <span className="ess-plain-input" data-invalid={invalid}>
      <input {...input} aria-invalid={invalid} onChange={(e) => onChange(e.target.value)} />
    </span>
  );
}

const EYE = "M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12zm11 3a3 3 0 1 0 0-6 3 3 0 0 0 0 6z";

/** A password input whose eye button shows or hides the characters. */
export function PlainPassword({ showLabel, ...props }: Omit<Props, "type"> & { showLabel: string }) {
  const [shown, setShown] = useState(false);
  const { invalid = false, onChange, ...input } = props;
  return (
    <span className="ess-plain-input" data-invalid={invalid}>
      <input {...input} type={shown ? "text" : "password"} aria-invalid={invalid} onChange={(e) => onChange(e.target.value)} />
      <button type="button" aria-label={showLabel} aria-pressed={shown} onClick={() => setShown((s) => !s)}>
        <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path d={EYE} />
          {!shown && <path d="M3 3l18 18" />}
        </svg>
      </button>
    </span>
  );
}
