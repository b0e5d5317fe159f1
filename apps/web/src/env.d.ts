/// <reference types="vite/client" />
declare const __APP_VERSION__: string;
declare const __APP_BUILD__: string;
declare const __APP_BUILT_AT__: string;

declare module "virtual:ess-api-paths" {
  export const API: Record<string, Record<string, { method: string; path: string; raw?: boolean }>>;
  export const TOKEN_CLIENT_AUTHORIZATION: string;
}
