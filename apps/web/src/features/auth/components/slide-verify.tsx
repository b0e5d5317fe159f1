import { useMutation, useQuery } from "@tanstack/react-query";
import Alert from "antd/es/alert";
import Button from "antd/es/button";
import { type KeyboardEvent, type PointerEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { randomKey } from "./random-key.ts";

interface Props {
  /** Receives the one-time proof once the piece sits in its gap. */
  onVerified: (proof: string) => void;
}

/**
 * Slide verification: the server draws a picture with a gap and the piece cut from it; the user
 * drags the piece (or moves it with the arrow keys and presses Enter) into the gap. Only the
 * server knows where the gap is; a miss asks for a new picture.
 */
export function SlideVerify({ onVerified }: Props) {
  const { t } = useTranslation("auth");
  const [key, setKey] = useState(randomKey);
  const [x, setX] = useState(0);
  const [done, setDone] = useState(false);
  const drag = useRef<{ startX: number; startValue: number } | null>(null);
  const puzzle = useQuery({
    queryKey: ["slide", key],
    queryFn: () => call(API.captcha.slide, { query: { randomStr: key } }),
    staleTime: Infinity,
    retry: false,
  });
  const check = useMutation({
    mutationFn: (at: number) => call(API.captcha.slideCheck, { body: { randomStr: key, x: at } }),
    onSuccess: (answer) => {
      setDone(true);
      onVerified(answer.proof);
    },
    onError: () => {
      setX(0);
      setKey(randomKey());
    },
  });

  const data = puzzle.data;
  const max = data ? data.width - data.pieceSize : 0;
  const clamp = (value: number) => Math.max(0, Math.min(max, value));

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (done || check.isPending) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startX: event.clientX, startValue: x };
  };
  const onPointerMove = (event: PointerEvent<HTMLButtonElement>) => {
    if (drag.current) setX(clamp(drag.current.startValue + event.clientX - drag.current.startX));
  };
  const onPointerUp = () => {
    if (!drag.current) return;
    drag.current = null;
    check.mutate(x);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (done) return;
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      event.preventDefault();
      setX(clamp(x + (event.key === "ArrowRight" ? 1 : -1) * (event.shiftKey ? 10 : 1)));
    } else if (event.key === "Enter") {
      event.preventDefault();
      check.mutate(x);
    }
  };

  // A grey box of the picture's size while it loads (antd's Skeleton would weigh on the sign-in page).
  if (!data)
    return (
      <div
        aria-busy="true"
        style={{ width: 300, maxWidth: "100%", height: 150, borderRadius: 6, background: "rgba(0,0,0,0.06)" }}
      />
    );
  const error = check.error instanceof ApiError ? check.error.message : null;
  return (
    <div data-testid="slide-verify" style={{ width: data.width, maxWidth: "100%" }}>
      <div style={{ position: "relative", width: data.width, height: data.height }}>
        <img
          src={data.background}
          alt={t("slide.picture")}
          data-testid="slide-background"
          width={data.width}
          height={data.height}
          draggable={false}
        />
        <img
          src={data.piece}
          alt=""
          data-testid="slide-piece"
          draggable={false}
          style={{
            position: "absolute",
            left: x,
            top: data.y,
            width: data.pieceSize,
            height: data.pieceSize,
            pointerEvents: "none",
          }}
        />
      </div>
      <div
        style={{
          position: "relative",
          height: 40,
          marginTop: 8,
          borderRadius: 4,
          background: done ? "#f6ffed" : "#f0f2f5",
          border: "1px solid #d9d9d9",
        }}
      >
        <span
          style={{
            position: "absolute",
            inset: 0,
            paddingLeft: data.pieceSize,
            display: "grid",
            placeItems: "center",
            color: "#8c8c8c",
            fontSize: 13,
            pointerEvents: "none",
          }}
        >
          {done ? t("slide.done") : t("slide.hint")}
        </span>
        <Button
          type={done ? "primary" : "default"}
          data-testid="slide-handle"
          aria-label={t("slide.handle")}
          aria-valuemin={0}
          aria-valuemax={max}
          aria-valuenow={x}
          role="slider"
          disabled={done}
          loading={check.isPending}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onKeyDown={onKeyDown}
          style={{
            position: "absolute",
            left: x,
            top: 0,
            width: data.pieceSize,
            height: 38,
            touchAction: "none",
            cursor: "grab",
          }}
        >
          ⇢
        </Button>
      </div>
      {error && !done && <Alert type="error" title={error} showIcon style={{ marginTop: 8 }} data-testid="slide-error" />}
    </div>
  );
}
