import type { MessageInstance } from "antd/es/message/interface";

/**
 * antd's message API, loaded when first needed: the pages outside the console (sign-in, lock)
 * rarely show one, and the console layout has its own through antd's App.
 */
export async function notify(kind: "error" | "warning" | "success", content: string, duration = 3) {
  const { default: message } = (await import("antd/es/message")) as unknown as { default: MessageInstance };
  void message[kind]({ content, duration });
}
