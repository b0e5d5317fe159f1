import { Radio, Tooltip, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { MODES, ModeSwatch, modeColour } from "./mode-palette.tsx";

const hourText = (h: number) => `${String(h).padStart(2, "0")}:00`;
const HOURS = Array.from({ length: 24 }, (_, h) => h);

/** Consecutive hours of one mode, for the written summary under the strip. */
export function runsOf(hourly: readonly number[]): { from: number; to: number; mode: number }[] {
  const runs: { from: number; to: number; mode: number }[] = [];
  hourly.forEach((mode, h) => {
    const last = runs.at(-1);
    if (last && last.mode === mode) last.to = h + 1;
    else runs.push({ from: h, to: h + 1, mode });
  });
  return runs;
}

/**
 * The 24 hourly slots as a day: one coloured block per hour. Pick a mode, then click an hour or
 * drag across several to give them that mode; the runs of the day are written out below.
 */
export function DayStrip({
  hourly,
  onChange,
  editable,
}: {
  hourly: readonly number[];
  onChange: (next: number[]) => void;
  editable: boolean;
}) {
  const { t } = useTranslation(["schedules", "enums"]);
  const [brush, setBrush] = useState<number>(MODES[0] ?? 0);
  const painting = useRef(false);
  useEffect(() => {
    const stop = () => {
      painting.current = false;
    };
    window.addEventListener("pointerup", stop);
    return () => window.removeEventListener("pointerup", stop);
  }, []);
  const paint = (h: number) => {
    if (!editable || hourly[h] === brush) return;
    const next = [...hourly];
    next[h] = brush;
    onChange(next);
  };
  const modeName = (m: number) => t(`enums:systemModeFilter.${m}`);

  return (
    <div data-testid="schedule-day">
      {editable && (
        <div style={{ marginBottom: 12 }}>
          <Typography.Text type="secondary" style={{ display: "block", marginBottom: 6 }}>
            {t("schedules:view.brushHelp")}
          </Typography.Text>
          <Radio.Group
            value={brush}
            onChange={(e) => setBrush(e.target.value)}
            optionType="button"
            data-testid="schedule-brush"
            options={MODES.map((m) => ({
              value: m,
              label: (
                <span data-testid={`schedule-brush-${m}`}>
                  <ModeSwatch mode={m} />
                  {modeName(m)}
                </span>
              ),
            }))}
          />
        </div>
      )}
      <fieldset
        aria-label={t("schedules:view.hourly")}
        style={{
          display: "grid",
          gridTemplateColumns: "repeat(24, 1fr)",
          gap: 2,
          userSelect: "none",
          touchAction: "none",
          border: 0,
          margin: 0,
          padding: 0,
          minWidth: 0,
        }}
      >
        {HOURS.map((h) => {
          const mode = hourly[h] ?? 0;
          const colour = modeColour(mode);
          const label = `${hourText(h)}–${hourText(h + 1)} ${modeName(mode)}`;
          return (
            <Tooltip key={`h${h}`} title={label}>
              <button
                type="button"
                data-testid={`schedule-hour-${h}`}
                data-mode={mode}
                aria-label={label}
                disabled={!editable}
                onPointerDown={(e) => {
                  e.currentTarget.releasePointerCapture?.(e.pointerId);
                  painting.current = true;
                  paint(h);
                }}
                onPointerEnter={() => painting.current && paint(h)}
                // Keyboard users paint with Enter or Space (a button's click).
                onClick={() => paint(h)}
                style={{
                  height: 44,
                  border: "none",
                  borderRadius: 3,
                  padding: 0,
                  cursor: editable ? "pointer" : "default",
                  background: colour.background,
                  color: colour.text,
                  fontSize: 11,
                }}
              >
                {h}
              </button>
            </Tooltip>
          );
        })}
      </fieldset>
      <ul style={{ margin: "12px 0 0", paddingInlineStart: 18 }} data-testid="schedule-day-summary">
        {runsOf(hourly).map((r) => (
          <li key={r.from}>
            <ModeSwatch mode={r.mode} />
            {`${hourText(r.from)}–${r.to === 24 ? "24:00" : hourText(r.to)} ${modeName(r.mode)}`}
          </li>
        ))}
      </ul>
    </div>
  );
}
