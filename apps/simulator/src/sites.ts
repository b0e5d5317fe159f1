/**
 * Sites of the demo fleet: where the manufacturer sells (the country codes of the catalogue), each
 * with a location for the sun, a time zone for days and counters, and a climate for temperatures.
 */
export interface Site {
  id: string;
  /** Code of the `countryCodeFilter` enumeration. */
  countryCode: number;
  latitude: number;
  longitude: number;
  timeZone: string;
  /** Mean daily air temperature in January and July, °C. */
  climate: readonly [number, number];
}

export const SITES: readonly Site[] = [
  { id: "shanghai", countryCode: 0, latitude: 31.23, longitude: 121.47, timeZone: "Asia/Shanghai", climate: [4, 29] },
  { id: "rome", countryCode: 1, latitude: 41.9, longitude: 12.5, timeZone: "Europe/Rome", climate: [8, 25] },
  { id: "munich", countryCode: 2, latitude: 48.14, longitude: 11.58, timeZone: "Europe/Berlin", climate: [0, 19] },
  { id: "sydney", countryCode: 3, latitude: -33.87, longitude: 151.21, timeZone: "Australia/Sydney", climate: [23, 13] },
  { id: "brussels", countryCode: 4, latitude: 50.85, longitude: 4.35, timeZone: "Europe/Brussels", climate: [3, 18] },
  { id: "johannesburg", countryCode: 5, latitude: -26.2, longitude: 28.05, timeZone: "Africa/Johannesburg", climate: [20, 11] },
  { id: "bristol", countryCode: 6, latitude: 51.45, longitude: -2.59, timeZone: "Europe/London", climate: [5, 17] },
  { id: "seville", countryCode: 7, latitude: 37.39, longitude: -5.98, timeZone: "Europe/Madrid", climate: [11, 28] },
  { id: "dublin", countryCode: 9, latitude: 53.35, longitude: -6.26, timeZone: "Europe/Dublin", climate: [5, 15] },
  { id: "utrecht", countryCode: 13, latitude: 52.09, longitude: 5.12, timeZone: "Europe/Amsterdam", climate: [3, 18] },
];

export function siteById(id: string): Site {
  const site = SITES.find((s) => s.id === id);
  if (!site) throw new Error(`unknown site ${id}`);
  return site;
}
