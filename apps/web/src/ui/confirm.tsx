import { type App, type ModalFuncProps, Popconfirm, type PopconfirmProps } from "antd";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";

type ModalApi = ReturnType<typeof App.useApp>["modal"];

/**
 * The answers of every question asked before an action, in every dialog and pop-up: "Confirm"
 * (unless the question names its action, e.g. "Restore") and "Cancel". One wording everywhere, so
 * nothing asks with "OK" here and "Confirm" there.
 */
export const confirmTexts = (t: TFunction) => ({ okText: t("common:actions.confirm"), cancelText: t("common:actions.cancel") });

/** Asks in a dialog before an action; `onOk` runs on Confirm (the dialog waits for it). */
export function confirmAction(modal: ModalApi, t: TFunction, props: ModalFuncProps) {
  return modal.confirm({ ...confirmTexts(t), ...props });
}

/** Asks in a dialog; answers whether the user confirmed. */
export function askConfirm(modal: ModalApi, t: TFunction, props: Omit<ModalFuncProps, "onOk" | "onCancel">): Promise<boolean> {
  return new Promise((resolve) =>
    modal.confirm({ ...confirmTexts(t), ...props, onOk: () => resolve(true), onCancel: () => resolve(false) }),
  );
}

/** A pop-up question beside its button, with the same answers as the dialogs. */
export function ConfirmPopover(props: PopconfirmProps) {
  const { t } = useTranslation("common");
  return <Popconfirm {...confirmTexts(t)} {...props} />;
}
