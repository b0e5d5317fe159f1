import { createVersionCheck, VERSION_RELOAD_DELAY_MS } from "./version-check.ts";

type Notify = () => void;
let notify: Notify = () => {};

/** Registers how the new-version notice is shown (the shell does it once antd's App is up). */
export const onNewVersion = (show: Notify) => {
  notify = show;
};

/** The console's one version check: on load, every 60 s and on navigation (spec §4). */
export const versionCheck = createVersionCheck(() => {
  notify();
  setTimeout(() => location.reload(), VERSION_RELOAD_DELAY_MS);
});
