import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Option, OptionSource } from "./types.ts";

/** The choices of a source, translated; loaded ones are cached for a minute per source key and language. */
export function useOptions(source: OptionSource | undefined): { options: Option[]; loading: boolean } {
  const { t, i18n } = useTranslation();
  // Loaded labels are in the user's language (the server translates them), so the cache is per language.
  const loaded = useQuery({
    queryKey: ["crud-options", source && "key" in source ? source.key : null, i18n.language],
    queryFn: () => (source && "load" in source ? source.load() : Promise.resolve([])),
    enabled: Boolean(source && "load" in source),
    staleTime: 60_000,
  });
  if (!source) return { options: [], loading: false };
  if ("values" in source)
    return {
      options: source.values.map((value) => ({
        value,
        label: t(source.labelKey.endsWith(":") ? `${source.labelKey}${String(value)}` : `${source.labelKey}.${String(value)}`),
      })),
      loading: false,
    };
  return { options: loaded.data ?? [], loading: loaded.isLoading };
}

/** Every IANA time zone the browser knows, as the server checks them. */
export const TIME_ZONES: Option[] = [...Intl.supportedValuesOf("timeZone"), "UTC"].map((zone) => ({ value: zone, label: zone }));
