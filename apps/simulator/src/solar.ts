import { hashUnit } from "./random.ts";
import type { Site } from "./sites.ts";

const RAD = Math.PI / 180;

/** Sun elevation (degrees) at a place and instant: declination, equation of time, hour angle. */
export function sunElevation(latitude: number, longitude: number, at: number): number {
  const date = new Date(at);
  const start = Date.UTC(date.getUTCFullYear(), 0, 0);
  const dayOfYear = (at - start) / 86_400_000;
  const b = (360 / 365) * (dayOfYear - 81) * RAD;
  const declination = 23.45 * Math.sin(b) * RAD;
  const equationOfTime = 9.87 * Math.sin(2 * b) - 7.53 * Math.cos(b) - 1.5 * Math.sin(b); // minutes
  const utcMinutes = date.getUTCHours() * 60 + date.getUTCMinutes() + date.getUTCSeconds() / 60;
  const solarMinutes = utcMinutes + 4 * longitude + equationOfTime;
  const hourAngle = (solarMinutes / 4 - 180) * RAD;
  const lat = latitude * RAD;
  const sin = Math.sin(lat) * Math.sin(declination) + Math.cos(lat) * Math.cos(declination) * Math.cos(hourAngle);
  return Math.asin(Math.max(-1, Math.min(1, sin))) / RAD;
}

/**
 * Irradiance on panels tilted towards the equator, W/m²: a clear-sky model (air-mass attenuation,
 * a tilt gain that grows as the sun sinks) scaled down by the cloud cover.
 */
export function irradiance(elevationDeg: number, cloudCover: number): number {
  if (elevationDeg <= 0) return 0;
  const sin = Math.sin(elevationDeg * RAD);
  const airMass = 1 / (sin + 0.50572 * (elevationDeg + 6.07995) ** -1.6364);
  const direct = 1353 * 0.7 ** (airMass ** 0.678);
  const tiltGain = 1 + 0.35 * (1 - sin);
  const clear = direct * sin * tiltGain + 0.1 * direct;
  return clear * (1 - 0.75 * cloudCover ** 1.5);
}

/**
 * Cloud cover (0 clear – 1 overcast) of a site at an instant: each day draws a weather type from
 * the site and date, and passing clouds vary it within the day.
 */
export function cloudCover(site: Site, at: number, dayKey: string): number {
  const draw = hashUnit(`${site.id}|${dayKey}`);
  const base = draw < 0.45 ? 0.05 : draw < 0.8 ? 0.4 : 0.85;
  const minutes = at / 60_000;
  const phase = hashUnit(`${dayKey}|${site.id}|phase`) * 100;
  const passing = 0.5 * Math.sin(minutes / 7 + phase) + 0.3 * Math.sin(minutes / 2.3 + phase * 2) + 0.2 * Math.sin(minutes / 0.9);
  const spread = base === 0.4 ? 0.35 : 0.08;
  return Math.max(0, Math.min(1, base + spread * passing));
}

/** Air temperature, °C: the season between the climate's January and July means, warmest mid-afternoon. */
export function airTemperature(site: Site, at: number, localHour: number): number {
  const date = new Date(at);
  const dayOfYear = (at - Date.UTC(date.getUTCFullYear(), 0, 0)) / 86_400_000;
  const season = (1 - Math.cos(((dayOfYear - 15) / 365) * 2 * Math.PI)) / 2; // 0 mid-January, 1 mid-July
  const mean = site.climate[0] + (site.climate[1] - site.climate[0]) * season;
  return mean + 5 * Math.sin(((localHour - 9) / 24) * 2 * Math.PI);
}
