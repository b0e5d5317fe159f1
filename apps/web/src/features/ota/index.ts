/** What other features use of OTA: the device's upgrade records and its "OTA upgrade" button. */
export { OtaSendButton } from "./components/ota-send.tsx";
export { UpgradeRecords } from "./components/upgrade-records.tsx";
